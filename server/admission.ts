// What is refused before the app reads a request, and the bodies whose credential is a signature
// over them (webhooks, Flow's callbacks): held within a budget and checked as they arrive.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BodySignatureCheck } from "../app/edge/front-doors/body-signature.server";
import { ENVELOPE_HEADERS, errorEnvelope } from "../app/lib/envelope";
import { ServiceError } from "../app/lib/errors";
import type { LogFields, LogLevel } from "../app/lib/json-log";
import type { AppEntry } from "./app-build";
import type { ServerConfig } from "./config";
import { envelope, refuseBody, refuseSignature } from "./refusals";
import { validRequestUrlOf } from "./remix-adapter";
import { hasBody, type RequestState } from "./request-state";

/** The part of UNAUTHENTICATED_BODY_BUDGET_MIB one client address may hold (at least one body's bound). */
const UNAUTHENTICATED_BODY_SHARE = 1 / 4;

interface AdmissionOptions {
  config: ServerConfig;
  entry: AppEntry;
  log: (level: LogLevel, msg: string, fields?: LogFields) => void;
}

export interface Admission {
  /** True when the request has been answered already, before anything read it. */
  refusedAtOnce(req: IncomingMessage, res: ServerResponse, state: RequestState): boolean;
  /** Resolves true once a signed body arrived whole with its signature matching (state.signedBody). */
  readSignedBody(
    req: IncomingMessage,
    res: ServerResponse,
    state: RequestState,
    signature: BodySignatureCheck,
  ): Promise<boolean>;
  /** Body bytes reserved now by requests whose credential is a signature over their body. */
  readonly unauthenticatedBodyBytes: number;
}

export function createAdmission({ config, entry, log }: AdmissionOptions): Admission {
  /** Bytes reserved by requests whose body is their credential, in flight now (reserveUnauthenticatedBody). */
  let unauthenticatedBodyBytes = 0;
  const unauthenticatedBodyBytesByAddress = new Map<string, number>();
  let lastBudgetLog = 0;

  /**
   * What is refused before anything reads the request: a Host no URL can be built from (400), and
   * a declared body longer than the path's bound (413). A chunked body is counted as the app reads
   * it (server/remix-adapter.ts) and refused the same way at the first byte past the bound: no
   * signature check, parser or platform library ever holds more of a body than that.
   */
  function refusedAtOnce(req: IncomingMessage, res: ServerResponse, state: RequestState): boolean {
    const url = validRequestUrlOf(req);
    if (url === undefined) {
      state.route = "other";
      const body = envelope("VALIDATION_ERROR", "Malformed request: invalid Host");
      res.writeHead(400, { ...ENVELOPE_HEADERS, "Content-Length": Buffer.byteLength(body), Connection: "close" });
      res.end(body);
      return true;
    }
    state.context.requestUrl = url;
    if (Number(req.headers["content-length"] ?? 0) > state.maxBodyBytes) {
      refuseBody(res, state);
      return true;
    }
    if (!state.bodyIsCredential || !hasBody(req)) return false;
    const header = req.headers[entry.BODY_SIGNATURE_HEADER];
    state.signature = entry.bodySignatureCheck(Array.isArray(header) ? header[0] : header);
    if (state.signature === undefined) {
      refuseSignature(res, "Request body signature missing");
      return true;
    }
    if (!reserveUnauthenticatedBody(req, res, state)) {
      // 503, not RATE_LIMITED's 429: the budget is the whole process's, not this caller's share.
      const body = errorEnvelope(
        new ServiceError("RATE_LIMITED", "Too many unauthenticated request bodies in flight; retry shortly", {
          status: 503,
        }),
      );
      res.writeHead(503, { ...ENVELOPE_HEADERS, "Content-Length": Buffer.byteLength(body), "Retry-After": "1" });
      res.end(body);
      return true;
    }
    return false;
  }

  /**
   * A body whose credential it is is held whole (once: readSignedBody) before its HMAC can be
   * checked as it ends: what all such
   * requests may hold at once is config.unauthenticatedBodyBudgetBytes, so bogus signatures cannot
   * grow the process without bound, and one client address (read as forwardedClientAddress reads it, so
   * behind a trusted proxy too) may hold a quarter of it (UNAUTHENTICATED_BODY_SHARE), so one
   * forger cannot keep the platform's deliveries out. A request reserves its declared length (a
   * chunked one, its path's bound) until its response is done; one past either is refused before
   * it is read.
   */
  function reserveUnauthenticatedBody(req: IncomingMessage, res: ServerResponse, state: RequestState): boolean {
    const declared = req.headers["content-length"];
    const bytes = declared === undefined ? state.maxBodyBytes : Number(declared);
    const address = state.clientAddress ?? "unknown";
    const byAddress = unauthenticatedBodyBytesByAddress.get(address) ?? 0;
    const budget = config.unauthenticatedBodyBudgetBytes;
    const share = Math.max(state.maxBodyBytes, budget * UNAUTHENTICATED_BODY_SHARE);
    if (unauthenticatedBodyBytes + bytes > budget || byAddress + bytes > share) {
      if (Date.now() - lastBudgetLog > 60_000) {
        lastBudgetLog = Date.now();
        log("warn", "unauthenticated body budget reached", {
          clientAddress: address,
          inFlight: unauthenticatedBodyBytes,
          inFlightFromAddress: byAddress,
          budget,
        });
      }
      return false;
    }
    unauthenticatedBodyBytes += bytes;
    unauthenticatedBodyBytesByAddress.set(address, byAddress + bytes);
    res.once("close", () => {
      unauthenticatedBodyBytes -= bytes;
      const left = (unauthenticatedBodyBytesByAddress.get(address) ?? bytes) - bytes;
      if (left > 0) unauthenticatedBodyBytesByAddress.set(address, left);
      else unauthenticatedBodyBytesByAddress.delete(address);
    });
    return true;
  }

  /**
   * Reads a body whose credential it is, checking its signature as the bytes arrive and keeping
   * them once: resolves with the body when the signature matches (the app then reads it from
   * there), and otherwise answers 401 (or 413 past the path's bound) and drops it. A forged body
   * is thus never held more than once, nor copied by the app's readers and the platform library's
   * check (a buffer of the whole, a string, its encoding and its signing copy: five times its size
   * at the peak), and the bytes its reservation counts are the bytes the process holds.
   */
  function readSignedBody(
    req: IncomingMessage,
    res: ServerResponse,
    state: RequestState,
    signature: BodySignatureCheck,
  ): Promise<boolean> {
    return new Promise((resolve) => {
      let chunks: Buffer[] = [];
      let size = 0;
      const stop = (signed: boolean) => {
        req.off("data", onData);
        req.off("end", onEnd);
        res.off("close", onGone);
        if (signed) state.signedBody = chunks;
        chunks = [];
        resolve(signed);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > state.maxBodyBytes) {
          stop(false);
          refuseBody(res, state);
          return;
        }
        signature.update(chunk);
        chunks.push(chunk);
      };
      const onEnd = () => {
        if (signature.matches()) {
          stop(true);
          return;
        }
        stop(false);
        refuseSignature(res, "Request body signature does not match");
      };
      // Answered meanwhile (408, too slow) or the client went away.
      const onGone = () => stop(false);
      req.on("data", onData);
      req.once("end", onEnd);
      res.once("close", onGone);
    });
  }

  return {
    refusedAtOnce,
    readSignedBody,
    get unauthenticatedBodyBytes() {
      return unauthenticatedBodyBytes;
    },
  };
}
