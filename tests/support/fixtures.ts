/** Request bodies in the spec's shapes, with defaults a test can override field by field. */
export function aSaveRequest(overrides: Record<string, unknown> = {}) {
  return {
    context: "wishlist",
    entityType: "product",
    entityGid: "gid://shopify/Product/1",
    source: "product-page",
    ...overrides,
  };
}

export function anIdentity(overrides: Record<string, unknown> = {}) {
  const { source: _source, ...identity } = aSaveRequest(overrides);
  return identity;
}

export function identityQuery(overrides: Record<string, string> = {}): Record<string, string> {
  return anIdentity(overrides) as Record<string, string>;
}
