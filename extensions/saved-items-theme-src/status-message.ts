import type { BlockConfig } from "./block-config";
import { data } from "./dom";
import { pausedUntil } from "./saved-state";
import type { Outcome } from "./save-or-remove";

/** Says what a save or remove did in the block's aria-live status, with a login link for a guest save. */
export function announce(config: BlockConfig, outcome: Outcome, on: boolean): void {
  const { status } = config;
  status.textContent = "";
  if (outcome === "busy") return;
  status.textContent = config.text(
    outcome === "error" || outcome === "paused" || outcome === "already"
      ? outcome
      : !on
        ? "removed"
        : outcome === "guest"
          ? "guest"
          : "added",
  );
  if (outcome === "guest" && on) {
    const login = document.createElement("a");
    login.textContent = config.text("login");
    login.href = `${data(config.root, "login-url")}?return_url=${encodeURIComponent(location.pathname + location.search)}`;
    status.append(" ", login);
  }
}

/**
 * While saving is paused: `controls` disabled, each saying why (its title), the root marked
 * data-paused, and, with `status`, the block's status saying it; all undone once it serves again.
 */
export function showPause(config: BlockConfig, controls: HTMLElement[], status?: boolean): void {
  const why = pausedUntil() === undefined ? "" : config.text("paused");
  // Only a change of pause touches a control: others disable them for their own reasons meanwhile.
  for (const control of controls) {
    if (control.title === why) continue;
    (control as HTMLButtonElement).disabled = !!why;
    control.title = why;
  }
  config.root.toggleAttribute("data-paused", !!why);
  if (status && (why || config.status.textContent === config.text("paused"))) config.status.textContent = why;
}
