import { isServiceError, type ErrorCode } from "~/lib/errors";

/** What an admin page's form shows when a ServiceError refuses it. */
export interface AdminFormRefusal {
  ok: false;
  code: ErrorCode;
  message: string;
  retryAfterSeconds: number | null;
}

/**
 * An admin page's form action: what `run` returns, or the refusal the page shows when a
 * ServiceError stops it. Anything else (the library's re-authentication Responses) is rethrown.
 */
export async function adminFormAction<Result>(run: () => Promise<Result>): Promise<Result | AdminFormRefusal> {
  try {
    return await run();
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return { ok: false, code: error.code, message: error.message, retryAfterSeconds: error.retryAfterSeconds ?? null };
  }
}
