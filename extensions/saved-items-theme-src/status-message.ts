import type { BlockConfig } from "./block-config";
import { data } from "./dom";
import type { Outcome } from "./save-or-remove";

/** Says what a save or remove did in the block's aria-live status, with a login link for a guest save. */
export function announce(config: BlockConfig, outcome: Outcome, on: boolean): void {
  const { status } = config;
  status.textContent = "";
  if (outcome === "busy") return;
  status.textContent = config.text(
    outcome === "error" ? "error" : !on ? "removed" : outcome === "guest" ? "guest" : "added",
  );
  if (outcome === "guest" && on) {
    const login = document.createElement("a");
    login.textContent = config.text("login");
    login.href = `${data(config.root, "login-url")}?return_url=${encodeURIComponent(location.pathname + location.search)}`;
    status.append(" ", login);
  }
}
