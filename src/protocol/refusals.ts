import type { RefusalDetails } from './protection';

/**
 * Every refusal the server sends, by its code (`namespace/snake_case`; clients depend on these
 * strings: never rename one). A refusal reaches its client as `{ code, message }`: the
 * rejection of a room request, a room's `refused` message, an HTTP answer's `error`, or
 * `"<code>: <sentence>"` when a room refuses a join. `message` is the server's own sentence
 * about this case; `meaning` below is what the code always means (docs, logs).
 *
 * `retryable`: the same request, sent again unchanged, may succeed later (a purchase with the
 * same `requestId` is never charged twice). `page`: the key of the sentence the page shows
 * (`refusals` in web/src/i18n/fr.ts and en.ts); codes that mean the same to a player share one.
 */
export const REFUSALS = {
  'purchase/malformed': { meaning: 'The purchase message or one of its fields is not of the documented shape.', retryable: false, page: 'purchaseMalformed' },
  'purchase/unknown_game': { meaning: 'The game is not sold at this price.', retryable: false, page: 'notSoldAtPrice' },
  'purchase/game_closed': { meaning: 'The emission of this game and price is sold out.', retryable: false, page: 'gameClosed' },
  'purchase/insufficient_funds': { meaning: 'The balance is below the stake.', retryable: false, page: 'balanceTooLow' },
  'purchase/unfinished_unit': { meaning: 'The player has an unfinished unit of this game: it must be finished first (GLI-19 4.16).', retryable: false, page: 'finishFirst' },
  'limit/not_set': { meaning: 'No weekly stake limit is set yet: no purchase before the player sets one.', retryable: false, page: 'limitNotSet' },
  'limit/stake_week': { meaning: 'The purchase would take the stakes of the last 7 days above the player’s weekly stake limit.', retryable: true, page: 'stakeWeekReached' },
  'limit/stake_day': { meaning: 'The purchase would take the stakes of the last 24 hours above the player’s daily stake limit.', retryable: true, page: 'stakeDayReached' },
  'limit/deposit_week': { meaning: 'The deposit would take the deposits of the last 7 days above the player’s weekly deposit limit.', retryable: true, page: 'depositWeekReached' },
  'limit/time_week': { meaning: 'The player’s time played in the last 7 days reached their weekly playing-time limit: no purchase until some of it leaves the window (`nextFreeAt`).', retryable: true, page: 'timeWeekReached' },
  'limit/time_day': { meaning: 'The player’s time played in the last 24 hours reached their daily playing-time limit: no purchase until some of it leaves the window (`nextFreeAt`).', retryable: true, page: 'timeDayReached' },
  'limit/malformed': { meaning: 'The limits request is not of the documented shape (whole cents 100–100000000, playing time in whole minutes as ms up to its window, or null).', retryable: false, page: 'limitMalformed' },
  'protection/excluded': { meaning: 'The player excluded themself from play until the date given.', retryable: false, page: 'selfExcluded' },
  'protection/blocked': { meaning: 'The operator blocked the player from play (the reason is never told to anyone else).', retryable: false, page: 'playBlocked' },
  'protection/reality_check': { meaning: 'The session’s play time reached the reality check: the player acknowledges its summary first.', retryable: true, page: 'realityCheck' },
  'protection/malformed': { meaning: 'The exclusion or block request is not of the documented shape.', retryable: false, page: 'protectionMalformed' },
  'protection/block_ended': { meaning: 'The block’s until is already past (ms since the epoch: a date in seconds is one): a block that blocks nothing is neither applied nor journaled.', retryable: false, page: 'protectionMalformed' },
  'pace/too_fast': { meaning: 'A unit of the player started less than the game’s pace (PACE_UNIT_MS) ago: buy again after `details.retryAfterMs`.', retryable: true, page: 'tooFast' },
  'picks/malformed': { meaning: 'The purchase-time picks are not of the shape the game takes.', retryable: false, page: 'choiceMalformed' },
  'picks/out_of_range': { meaning: 'A pick names a colour or symbol the game does not offer.', retryable: false, page: 'choiceNotOffered' },
  'picks/not_allowed': { meaning: 'The game takes no picks at purchase.', retryable: false, page: 'noChoiceAtPurchase' },
  'action/malformed': { meaning: 'The action message, or the action, is not of the shape the game takes.', retryable: false, page: 'actionMalformed' },
  'action/no_unit': { meaning: 'No unit is in play at this table.', retryable: false, page: 'noGameInProgress' },
  'action/unknown_unit': { meaning: 'The unitId names no unit in play at this table.', retryable: false, page: 'unitNotInPlay' },
  'action/together': { meaning: 'The units of one purchase are revealed together: the action must not name one of them.', retryable: false, page: 'playedTogether' },
  'action/not_yours': { meaning: 'The unit belongs to another player.', retryable: false, page: 'notYourGame' },
  'action/conflict': { meaning: 'The unit moved on in another process; it has been reloaded: send the action again if it still applies.', retryable: true, page: 'movedOnElsewhere' },
  'action/finished': { meaning: 'The unit is already fully revealed.', retryable: false, page: 'gameOver' },
  'action/already_revealed': { meaning: 'What the action reveals is already revealed.', retryable: false, page: 'alreadyRevealed' },
  'action/not_allowed_now': { meaning: 'The game does not take this action at this point of the reveal.', retryable: false, page: 'winningNumbersFirst' },
  'action/no_extra_left': { meaning: 'No Extra stage is left (Mine d’or).', retryable: false, page: 'noExtraLeft' },
  'action/pick_required': { meaning: 'The game symbol must be chosen before anything else (Noël).', retryable: false, page: 'symbolFirst' },
  'action/already_picked': { meaning: 'The game symbol is already chosen (Noël).', retryable: false, page: 'symbolChosen' },
  'action/rub_backwards': { meaning: 'A rub must go further than the lamp’s progress so far.', retryable: false, page: 'rubbedThatFar' },
  'action/out_of_range': { meaning: 'A field of the action is outside the values the game takes (a box, an index, a symbol, a progress).', retryable: false, page: 'notOnTheBoard' },
  'action/duplicate_index': { meaning: 'The action lists the same index twice.', retryable: false, page: 'sameNumberTwice' },
  'settle/unknown_unit': { meaning: 'No sale of this unit exists, so there is nothing to settle.', retryable: false, page: 'unitNotFound' },
  'wallet/insufficient_funds': { meaning: 'A withdrawal would take the balance below zero.', retryable: false, page: 'withdrawalTooLarge' },
  'wallet/operator_refused': { meaning: 'The operator’s wallet refused the stake (no funds, or its own limit or block for this player): nothing was debited, nothing bought.', retryable: false, page: 'operatorRefused' },
  'wallet/player_blocked': { meaning: 'The operator’s wallet refused the stake: the operator blocked this player. Nothing was debited, nothing bought.', retryable: false, page: 'operatorBlocked' },
  'wallet/undecided': { meaning: 'The operator’s wallet did not answer the stake’s debit in time: it is rolled back (returned) whatever happened there, and nothing was bought. Buy again with a new request id.', retryable: false, page: 'walletUndecided' },
  'wallet/pending': { meaning: 'This purchase’s debit, or another purchase of the player’s, is being settled with the operator’s wallet (one debit of a player at a time): ask again with the same request id in a moment.', retryable: true, page: 'walletPending' },
  'wallet/not_here': { meaning: 'The operator holds this player’s money (WALLET_MODE=seamless): deposits and withdrawals are made on the operator’s site.', retryable: false, page: 'walletNotHere' },
  'wallet/malformed': { meaning: 'The player id, the funding request or the journal page asked for is not of the documented shape.', retryable: false, page: 'walletRequestMalformed' },
  'events/malformed': { meaning: 'The events’ after and limit are not of the documented shape (an event id; limit 1–500).', retryable: false, page: 'eventsMalformed' },
  'history/malformed': { meaning: 'The history’s offset and limit must be whole numbers (limit 1–100).', retryable: false, page: 'historyMalformed' },
  'recall/malformed': { meaning: 'The recall message is not of the documented shape.', retryable: false, page: 'recallMalformed' },
  'recall/not_found': { meaning: 'No unit of that id is in the player’s history (someone else’s unit is answered the same).', retryable: false, page: 'unitNotFound' },
  'uncovered/malformed': { meaning: 'The uncovered message is not of the documented shape (a unit id and a whole number of steps, at least 1).', retryable: false, page: 'uncoveredMalformed' },
  'uncovered/unknown_unit': { meaning: 'The unitId names no unit on this table (someone else’s unit is answered the same).', retryable: false, page: 'unitNotInPlay' },
  'uncovered/not_shown': { meaning: 'The message counts more steps of the unit than the table has shown its player.', retryable: false, page: 'uncoveredMalformed' },
  'message/unknown_type': { meaning: 'The table takes no message of this type.', retryable: false, page: 'unknownMessage' },
  'table/malformed': { meaning: 'A table is opened for one of the games sold: the options name none.', retryable: false, page: 'tableGameUnknown' },
  'table/not_yours': { meaning: 'The table belongs to another player.', retryable: false, page: 'notYourTable' },
  'table/taken': { meaning: 'The table already has its player connected.', retryable: false, page: 'tableTaken' },
  'table/not_watchable': { meaning: 'The table is not open to watchers.', retryable: false, page: 'notWatchable' },
  'table/full': { meaning: 'The table has all the watchers it takes (WATCHERS_MAX).', retryable: true, page: 'tableFull' },
  'table/not_joined': { meaning: 'The client sent a message before it joined the table as its player.', retryable: false, page: 'joinFirst' },
  'table/flood': { meaning: 'Too many messages in one second: the table closed the connection; joining again resumes the unit.', retryable: false, page: 'flooded' },
  'table/player_left': { meaning: 'The table’s player left: the table closed and sent its watchers away (a watcher’s close reason).', retryable: false, page: 'playerLeft' },
  'table/replaced': { meaning: 'The player joined the table again from another connection, which took the seat (the former connection’s close reason).', retryable: false, page: 'tableReplaced' },
  'table/closed_to_watchers': { meaning: 'The player closed the table to watchers, who are sent away (a watcher’s close reason).', retryable: false, page: 'closedToWatchers' },
  'table/lost': { meaning: 'The watched table no longer answers (its server process stopped): its watchers are sent away (a watcher’s close reason).', retryable: false, page: 'tableLost' },
  'join/no_room': { meaning: 'No room of this name, or with this id, is open (it closed, or its process stopped): join or open another.', retryable: false, page: 'roomGone' },
  'join/expired': { meaning: 'The seat matchmaking reserved, or the reconnection token, expired or was used already: join again.', retryable: true, page: 'seatExpired' },
  'watchers/malformed': { meaning: 'The watchers message is not of the documented shape.', retryable: false, page: 'watchersMalformed' },
  'watchers/off': { meaning: 'This server takes no watchers (WATCHERS_MAX=0).', retryable: false, page: 'watchersOff' },
  'spectator/read_only': { meaning: 'Spectators watch: whatever they send is refused.', retryable: false, page: 'readOnly' },
  'auth/missing': { meaning: 'The request carries no player token.', retryable: false, page: 'signInFirst' },
  'auth/malformed': { meaning: 'The token is not a JWT, or the dev login’s name is not a valid pseudonym.', retryable: false, page: 'tokenOrNameInvalid' },
  'auth/expired': { meaning: 'The token has expired.', retryable: false, page: 'sessionExpired' },
  'auth/invalid': { meaning: 'The token fails verification (signature, issuer, audience, expiry, lifetime or subject).', retryable: false, page: 'tokenInvalid' },
  'auth/reconnection_token': { meaning: 'This server takes no reconnection token: a dropped player joins the table again by its id, with their token.', retryable: false, page: 'reconnectionToken' },
  'auth/dev_login_off': { meaning: 'The dev login is off on this server.', retryable: false, page: 'demoSignInOff' },
  'auth/rate_limited': { meaning: 'Too many dev logins from this address in the last minute.', retryable: true, page: 'tooManySignIns' },
  'auth/operator_only': { meaning: 'The route needs the operator token.', retryable: false, page: 'operatorOnly' },
  'auth/session_ended': { meaning: 'The operator ended the player’s sessions (POST /operator/sessions/end): the token of a session launched before is refused.', retryable: false, page: 'sessionEnded' },
  'auth/no_launch_session': { meaning: 'No launch session handle came with the request (its cookie), or it was used or expired: the operator launches the game again.', retryable: false, page: 'launchLinkUsed' },
  'operator/launch_off': { meaning: 'The operator’s launch is off on this server: it needs OPERATOR_SECRET, and JWT_SECRET to sign the session’s token.', retryable: false, page: 'operatorOnly' },
  'operator/signature': { meaning: 'The operator’s request carries no X-Lottery-Signature, or a malformed one, one outside the allowed clock skew, or a wrong one.', retryable: false, page: 'operatorOnly' },
  'operator/replayed': { meaning: 'This signed request was received before: each signature is taken once.', retryable: false, page: 'operatorOnly' },
  'operator/malformed': { meaning: 'The launch or session-end request is not of the documented shape (src/protocol/operator-api.ts).', retryable: false, page: 'operatorOnly' },
  'blocks/not_found': { meaning: 'No block of that id was printed.', retryable: false, page: 'blockNotFound' },
  'fairness/unknown_block': { meaning: 'No block of that id was printed (or the id does not parse).', retryable: false, page: 'blockNotFound' },
  'fairness/log_malformed': { meaning: 'The log request is not of the documented shape (a block id and a page, or an index; from and to: whole numbers, from ≤ to).', retryable: false, page: 'logRequestMalformed' },
  'fairness/log_not_found': { meaning: 'The log holds no such leaf (the page is not published yet, or the index is past its end), or is not that long yet.', retryable: false, page: 'logEntryNotFound' },
  'prizes_left/off': { meaning: 'The prizes-left count is off on this server (PRIZES_LEFT=false).', retryable: false, page: 'prizesLeftOff' },
  'request/rate_limited': { meaning: 'Too many requests from this address: the reverse proxy’s rate limit on the open routes (docs/operations.md, "The reverse proxy").', retryable: true, page: 'tooManyRequests' },
  'request/too_large': { meaning: 'The request body is larger than the server reads.', retryable: false, page: 'requestTooLarge' },
  'request/length_required': { meaning: 'A request body must be sent with a Content-Length.', retryable: false, page: 'requestUnreadable' },
  'request/malformed_json': { meaning: 'The request body is not valid JSON.', retryable: false, page: 'requestUnreadable' },
  'request/unsupported_encoding': { meaning: 'The request body is not UTF-8 JSON.', retryable: false, page: 'requestUnreadable' },
  'request/invalid': { meaning: 'The request could not be read.', retryable: false, page: 'requestUnreadable' },
  'request/mismatch': { meaning: 'This request id was used before for another request (another amount, or the other operation): nothing changed.', retryable: false, page: 'requestMismatch' },
  'request/not_found': { meaning: 'No route answers this method and path.', retryable: false, page: 'noSuchRoute' },
  'cors/origin_not_allowed': { meaning: 'The calling page’s origin is not in CORS_ORIGINS.', retryable: false, page: 'originNotAllowed' },
  'server/error': { meaning: 'The server failed for an unexpected reason (logged).', retryable: true, page: 'serverError' },
  'server/unavailable': { meaning: 'The server cannot reach its store right now (an outage).', retryable: true, page: 'serverUnavailable' },
} as const satisfies Record<string, RefusalInfo>;

export interface RefusalInfo {
  /** What the code always means, one English sentence. */
  readonly meaning: string;
  readonly retryable: boolean;
  /** The key of its sentence in the page's strings. */
  readonly page: string;
}

export type RefusalCode = keyof typeof REFUSALS;

/** The keys of the page's refusal sentences: one per meaning a player tells apart. */
export type RefusalSentenceKey = (typeof REFUSALS)[RefusalCode]['page'];

/** A refusal as it goes over the wire. */
export interface RefusalMessage {
  readonly code: RefusalCode;
  readonly message: string;
  /** With `limit/…` and `protection/…` refusals: which limit, what is left, until when. */
  readonly details?: RefusalDetails;
}

/** The body of every HTTP error answer. */
export interface HttpRefusal {
  readonly error: RefusalMessage;
}
