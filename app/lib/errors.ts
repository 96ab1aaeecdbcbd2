/**
 * Every error the service answers with, its HTTP status and whether a client may retry it.
 * The spec fixes the codes and most statuses; retryable is true only where waiting can help.
 */
export const ERROR_CODES = {
  INVALID_PROXY_SIGNATURE: { status: 401, retryable: false },
  AUTH_REQUIRED: { status: 401, retryable: false },
  CUSTOMER_REQUIRED: { status: 401, retryable: false },
  INVALID_TOKEN: { status: 401, retryable: false },
  TOKEN_EXPIRED: { status: 401, retryable: false },
  INVALID_HEADLESS_SIGNATURE: { status: 401, retryable: false },
  INVALID_LEGACY_STOREFRONT_TOKEN: { status: 401, retryable: false },
  SHOP_NOT_INSTALLED: { status: 403, retryable: false },
  CHANNEL_NOT_ENTITLED: { status: 403, retryable: false },
  CHANNEL_MISMATCH: { status: 403, retryable: false },
  VALIDATION_ERROR: { status: 400, retryable: false },
  DUPLICATE_SAVE: { status: 409, retryable: false },
  BATCH_CONFLICT: { status: 409, retryable: false },
  LIST_EXISTS: { status: 409, retryable: false },
  ITEM_NOT_FOUND: { status: 404, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  PLAN_LIMIT_REACHED: { status: 402, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  PLATFORM_UPSTREAM_ERROR: { status: 502, retryable: true },
  INTERNAL_ERROR: { status: 500, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The one error type of the service; turned into the envelope in one place (lib/envelope.ts). */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  /** When a retry can succeed, for the Retry-After header. */
  readonly retryAfterSeconds?: number;
  /** A 405's methods, for the Allow header HTTP requires of it (RFC 9110 §15.5.6). */
  readonly allow?: string;

  /** `status` overrides the table only where the spec gives one code two statuses (405, 413). */
  constructor(
    code: ErrorCode,
    message: string,
    options: { status?: number; cause?: unknown; retryAfterSeconds?: number; allow?: string } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "ServiceError";
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code].status;
    this.retryable = ERROR_CODES[code].retryable;
    if (options.retryAfterSeconds !== undefined)
      this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds));
    if (options.allow !== undefined) this.allow = options.allow;
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}
