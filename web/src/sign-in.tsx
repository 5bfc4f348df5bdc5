import { useState } from 'preact/hooks';
import { http, type Session } from './api';
import { refusalSentence, type Strings } from './i18n';

export function SignIn({ s, onSession, onError }: { s: Strings; onSession: (s: Session, balance?: number) => void; onError: (m: string) => void }) {
  const [name, setName] = useState('');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const devLogin = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    try {
      const answer = await http.devLogin(name.trim());
      onError('');
      onSession({ token: answer.token, pseudonym: answer.pseudonym }, answer.balance);
    } catch (err) {
      onError(refusalSentence(err, s));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel signin">
      <h2>{s.signIn}</h2>
      <form onSubmit={devLogin}>
        <p class="hint">{s.signInHelp}</p>
        <label>{s.pseudonym} <input name="pseudonym" required maxLength={32} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} autocomplete="nickname" /></label>
        <button type="submit" class="primary" disabled={busy}>{s.play}</button>
      </form>
      <form onSubmit={(e) => { e.preventDefault(); if (token.trim()) onSession({ token: token.trim(), pseudonym: '' }); }}>
        <label>{s.operatorToken} <input name="token" value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} autocomplete="off" /></label>
        <button type="submit">{s.useToken}</button>
      </form>
    </section>
  );
}
