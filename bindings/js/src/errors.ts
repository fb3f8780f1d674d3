// The one exception type of the package: every failure carries the library's frozen status.

/** Every failure of the package: `status` is the library's frozen `sc_status` code and
 *  `statusName` its stable name (`SC_ERR_MAC`, `SC_ERR_STATE`, ...). The package's own checks
 *  use the same names: `SC_ERR_ARG` (a value of the wrong type or length), `SC_ERR_UTF8` (a
 *  string with a lone surrogate), `SC_ERR_TOO_LARGE` (over a cap, refused before any wasm
 *  memory is taken), `SC_ERR_STATE` (a disposed object). */
export class SoftchatError extends Error {
  readonly status: number;
  readonly statusName: string;

  constructor(status: number, statusName: string, detail?: string) {
    super(detail ? `${statusName}: ${detail}` : statusName);
    this.name = 'SoftchatError';
    this.status = status;
    this.statusName = statusName;
  }
}

/** The statuses the package raises itself (the values of api/softchat/status.h). */
export const Status = Object.freeze({
  OK: 0,
  ARG: -1,
  STATE: -3,
  TOO_LARGE: -4,
  UTF8: -25,
  NOMEM: -83,
  IO: -85,
} as const);

// Symbol.dispose where the runtime lacks it (Node 20 before 20.4 defined none): the symbol
// Node itself used then, so `using` and explicit calls agree.
if (typeof (Symbol as { dispose?: symbol }).dispose !== 'symbol') {
  Object.defineProperty(Symbol, 'dispose', { value: Symbol.for('nodejs.dispose') });
}
