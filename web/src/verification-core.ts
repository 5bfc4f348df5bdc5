/**
 * The verification core as the page's lazily loaded chunk (`import('./verification-core')` in
 * verification.tsx): the games' generators and rules, SHA-256 through WebCrypto. Only the
 * players who press « Vérifier » download it.
 */
import { verifyUnit, type LogAnswers } from '../../src/audit/verify-unit';

export { verifyUnit, type LogAnswers };

/** `GET /fairness/blocks/:blockId`'s answer, as the core takes it. */
export type PublishedBlock = NonNullable<Parameters<typeof verifyUnit>[1]['published']>;
