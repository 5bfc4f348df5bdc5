/** Money is integer euro cents everywhere on the wire and inside (never binary floats). */
export type Cents = number;
