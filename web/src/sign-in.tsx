import { useEffect, useState } from 'preact/hooks';
import { http, type Session } from './api';
import { refusalSentence, type Strings } from './i18n';

const TOKEN_FIELD = new URLSearchParams(window.location.search).has('token-field');

export function SignIn({ s, onSession, onError, prompt }: { s: Strings; onSession: (s: Session, balance?: number) => void; onError: (m: string) => void; prompt: boolean }) {
  const [name, setName] = useState('');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  // Off (production, the operator's wallet): players come from the operator's site, no pseudonym form.
  const [devLoginOn, setDevLoginOn] = useState(true);
  useEffect(() => {
    http.health().then((h) => setDevLoginOn(h.devLogin), () => undefined);
  }, []);
  const devLogin = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    try {
      const answer = await http.devLogin(name.trim());
      onError('');
      onSession({ token: answer.token, pseudonym: answer.pseudonym, stakeLimitProposal: answer.stakeLimitProposal }, answer.balance);
    } catch (err) {
      onError(refusalSentence(err, s));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class={`panel signin${prompt ? ' prompt' : ''}`} aria-labelledby="signin-title">
      <h2 id="signin-title" tabIndex={-1}>{s.signIn}</h2>
      {prompt && <p class="notice">{s.signInToPlay}</p>}
      {devLoginOn ? <form onSubmit={devLogin}>
        <p class="hint">{s.signInHelp}</p>
        <label>{s.pseudonym} <input name="pseudonym" required maxLength={32} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} autocomplete="nickname" /></label>
        <button type="submit" class="primary" disabled={busy}>{s.play}</button>
      </form> : <p class="hint">{s.signInAtOperator}</p>}
      {/* A pasted operator's token is for testing: the field shows only with `?token-field` in the address. */}
      {TOKEN_FIELD && <form onSubmit={(e) => { e.preventDefault(); if (token.trim()) onSession({ token: token.trim(), pseudonym: '' }); }}>
        <label>{s.operatorToken} <input name="token" value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} autocomplete="off" /></label>
        <button type="submit">{s.useToken}</button>
      </form>}
    </section>
  );
}
