import { describe, expect, test } from "vitest";
import { themeItemStatuses } from "~/services/merchant-pages/theme-extension";

const HANDLES = ["saved-items-embed", "save-button", "saved-items"];
const theme = (activations: object[]) => ({ handle: "saved-items", type: "theme_app_extension", activations });

describe("the theme items' statuses from App Bridge's app.extensions()", () => {
  test("each block and embed takes the status App Bridge reports for its handle", () => {
    const answer = [
      {
        handle: "saved-items-account",
        type: "ui_extension",
        activations: [{ target: "customer-account.page.render" }],
      },
      theme([
        {
          handle: "saved-items-embed",
          name: "Saved items: card hearts",
          target: "body",
          status: "active",
          activations: [],
        },
        { handle: "save-button", name: "Save button", target: "section", status: "available", activations: [] },
        { handle: "saved-items", name: "Saved items", target: "section", status: "unavailable", activations: [] },
      ]),
    ];
    expect(themeItemStatuses(answer, HANDLES)).toEqual({
      "saved-items-embed": "active",
      "save-button": "available",
      "saved-items": "unavailable",
    });
  });

  test("what the answer does not name, or names with a status unknown here, is unknown: never enabled on a guess", () => {
    const answer = [
      // A UI extension's activation naming the same handle says nothing about the theme.
      { handle: "other", type: "ui_extension", activations: [{ handle: "save-button", status: "active" }] },
      theme([{ handle: "saved-items-embed", status: "enabled" }]),
    ];
    expect(themeItemStatuses(answer, HANDLES)).toEqual({
      "saved-items-embed": "unknown",
      "save-button": "unknown",
      "saved-items": "unknown",
    });
    expect(themeItemStatuses([], HANDLES)).toEqual({
      "saved-items-embed": "unknown",
      "save-button": "unknown",
      "saved-items": "unknown",
    });
  });
});
