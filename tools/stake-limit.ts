/**
 * What every harness that buys through the server does after its dev login, as a real client
 * must (docs/responsible-gaming.md): set a weekly stake limit, without which no purchase
 * passes (`limit/not_set`). High enough that no harness meets it.
 */
export const HARNESS_STAKE_LIMIT_WEEK_CENTS = 100_000_000;

export async function setHarnessStakeLimit(endpoint: string, token: string, signal?: AbortSignal): Promise<void> {
  const res = await fetch(`${endpoint}/protection/limits`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ stake_week: HARNESS_STAKE_LIMIT_WEEK_CENTS }),
    ...(signal ? { signal } : {}),
  });
  if (!res.ok) throw new Error(`stake limit: ${res.status} ${await res.text()}`);
}
