import { refusalOf } from './i18n';

/** Asks of a purchase still being settled with the operator's wallet (`wallet/pending`), one a second. */
export const PENDING_ASKS = 8;

const aSecond = () => new Promise<void>((resolve) => setTimeout(resolve, 1000));

/**
 * A purchase, asked again (`ask` sends the same request id) while the server answers that it is
 * being settled with the operator's wallet: its answer then gives every unit it dealt, charged
 * once. Any other answer, or the last ask's, is the caller's.
 */
export async function askToBuy<T>(ask: () => Promise<T>, wait: () => Promise<void> = aSecond): Promise<T> {
  for (let asked = 1; ; asked++) {
    try {
      return await ask();
    } catch (err) {
      if (refusalOf(err).code !== 'wallet/pending' || asked >= PENDING_ASKS) throw err;
      await wait();
    }
  }
}
