/** The statuses of a refusal: the caller's input, sign-in, rights, the thing asked for, its state, its pace. */
export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 429;

/**
 * Something the platform refuses to do (a rule, another tenant's id, a name taken), with the HTTP
 * status and the Chinese message the caller is told. Repositories and domain rules throw it, or a
 * subclass that names what refused (the routes' `HttpError` of http.ts is one); the error plugin
 * (plugins/errors.ts) answers every one, so a route has no mapping of its own.
 */
export class Refused extends Error {
  constructor(
    readonly status: RefusalStatus,
    message: string,
  ) {
    super(message);
  }
}
