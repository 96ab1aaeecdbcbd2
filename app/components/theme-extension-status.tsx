import { Badge, BlockStack, Button, InlineStack, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { TitledCard } from "~/components/titled-card";
import {
  themeItemStatuses,
  type ExtensionInfoLike,
  type ThemeItem,
  type ThemeItemStatus,
} from "~/services/merchant-pages/theme-extension";

/** `checking` until the browser has asked; `unknown-here` where there is no App Bridge to ask. */
type Reading = "checking" | "unknown-here" | Record<string, ThemeItemStatus>;

/**
 * App Bridge's `app.extensions()`, where this App Bridge has it. The global exists only inside the
 * admin (the sandbox and the tests block its script), and an App Bridge older than the method lacks
 * it: both answer `undefined`, and the page says it cannot tell rather than guess.
 */
function appExtensions(): (() => Promise<readonly ExtensionInfoLike[]>) | undefined {
  if (typeof shopify === "undefined") return undefined;
  const app = (shopify as { app?: { extensions?: () => Promise<readonly ExtensionInfoLike[]> } }).app;
  return app?.extensions ? () => app.extensions!() : undefined;
}

function useThemeStatuses(handles: readonly string[]): Reading {
  const [reading, setReading] = useState<Reading>("checking");
  useEffect(() => {
    let current = true;
    const extensions = appExtensions();
    const answer: Promise<Reading> = extensions
      ? extensions().then((list) => themeItemStatuses(list, handles))
      : Promise.resolve("unknown-here");
    // A failed call tells nothing about the theme: unknown, like no App Bridge at all.
    void answer
      .catch((): Reading => "unknown-here")
      .then((next) => {
        if (current) setReading(next);
      });
    return () => {
      current = false;
    };
    // The handles come from the loader and do not change while the page is shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return reading;
}

const LABELS: Record<ThemeItem["kind"], Record<ThemeItemStatus, string>> = {
  embed: { active: "Enabled", available: "Not enabled", unavailable: "Not supported by the theme", unknown: "Unknown" },
  block: { active: "Added", available: "Not added", unavailable: "Not supported by the theme", unknown: "Unknown" },
};
const TONES = { active: "success", available: "attention", unavailable: "warning", unknown: undefined } as const;

function StatusBadge({ kind, reading, handle }: { kind: ThemeItem["kind"]; reading: Reading; handle: string }) {
  if (reading === "checking") return <Badge>Checking…</Badge>;
  if (reading === "unknown-here") return <Badge>Unknown here</Badge>;
  const status = reading[handle] ?? "unknown";
  return <Badge tone={TONES[status]}>{LABELS[kind][status]}</Badge>;
}

/** The home page's setup check: the embed and each block, its status in the live theme and its deep link. */
export function ThemeExtensionStatus({ items }: { items: readonly ThemeItem[] }) {
  const reading = useThemeStatuses(items.map((item) => item.handle));
  return (
    <TitledCard title="Online Store theme">
      <Text as="p" tone="subdued">
        {reading === "unknown-here"
          ? "The status is known only inside your Shopify admin, which reports it for your published theme. Open the app from the admin to see it."
          : "As Shopify reports it for your published theme."}
      </Text>
      {items.map((item) => {
        const done = typeof reading === "object" && reading[item.handle] === "active";
        const action = item.kind === "embed" ? "Enable in the theme editor" : "Add in the theme editor";
        return (
          <InlineStack key={item.handle} align="space-between" blockAlign="center" gap="200">
            <BlockStack gap="100">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h3" variant="headingSm">
                  {item.name}
                </Text>
                <StatusBadge kind={item.kind} reading={reading} handle={item.handle} />
              </InlineStack>
              <Text as="p" tone="subdued">
                {item.kind === "embed" ? "App embed: the hearts on product cards" : "App block"}
              </Text>
            </BlockStack>
            {!done && (
              // The theme editor is on the admin's own origin: it must open top-level, not inside the app's iframe.
              <Button url={item.editorUrl} target="_top" accessibilityLabel={`${action}: ${item.name}`}>
                {action}
              </Button>
            )}
          </InlineStack>
        );
      })}
    </TitledCard>
  );
}
