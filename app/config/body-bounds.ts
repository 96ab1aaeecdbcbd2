/**
 * The most request body the server lets anything read; past it the answer is 413, refused on the
 * declared Content-Length at once or counted while a chunked body streams in (docs/deploy.md).
 * Webhooks carry whole resources: the platform sends payloads "upwards of a megabyte" for large
 * products and orders, and caps its own EventBridge deliveries at 1,000,000 bytes; 4 MiB leaves
 * margin. Nothing else the app takes comes near 1 MiB (operation bodies stop at 256 KiB, the Flow
 * callback and admin forms are a few hundred bytes). The configuration's budget of unauthenticated
 * bodies holds at least one webhook's.
 */
export const MAX_WEBHOOK_BODY_BYTES = 4 * 1024 * 1024;
export const MAX_BODY_BYTES = 1024 * 1024;
