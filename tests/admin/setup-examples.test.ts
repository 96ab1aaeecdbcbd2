// The Setup page's copy-paste examples, run as a developer would run them: each curl command and
// the customer-account snippet, exactly as the page shows them, sent through the app's request
// handler. Only the placeholders a developer fills in are filled (issue #32 item 4).
import { describe, expect, test } from "vitest";
import { TEST_ENV } from "../support/test-env";
import { APP_URL, sendToApp } from "../support/app";
import { CUSTOMER, givenDirectShop } from "../support/direct";
import { BROWSER_AGENT } from "../support/insights";
import { customerAccountSessionToken, withAdminSession } from "../support/session-token";

const app = { apiKey: TEST_ENV.SHOPIFY_API_KEY, apiSecret: TEST_ENV.SHOPIFY_API_SECRET };
type Example = { title: string; code: string };

async function setupExamples(shop: string) {
  const url = new URL("/app/setup?_data=routes/app.setup", APP_URL);
  const request = await withAdminSession(
    new Request(url, { headers: { "User-Agent": BROWSER_AGENT } }),
    { shop, ...app },
    "bearer",
  );
  const page = (await (await sendToApp(request)).json()) as {
    headless: { examples: Example[] };
    customerAccount: { examples: Example[] };
  };
  return { headless: page.headless.examples, customerAccount: page.customerAccount.examples };
}

/** The shell words of one command: the page's examples quote with single quotes only. */
function shellWords(command: string): string[] {
  const words = command.match(/'[^']*'|\S+/g) ?? [];
  return words.map((word) => (word.startsWith("'") ? word.slice(1, -1) : word));
}

/** Each curl command of an example (continuation lines joined, comments dropped) as a Request. */
function curlRequests(code: string): Request[] {
  const commands = code
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((line) => line.startsWith("curl "));
  return commands.map((command) => {
    const words = shellWords(command).slice(1);
    const headers = new Headers();
    let method = "GET";
    let body: string | undefined;
    let url = "";
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (word === "-X") method = words[++i]!;
      else if (word === "-H") {
        const [name, ...value] = words[++i]!.split(":");
        headers.set(name!, value.join(":").trim());
      } else if (word === "-d") body = words[++i]!;
      else url = word;
    }
    return new Request(url, { method, headers, body });
  });
}

async function send(request: Request) {
  const response = await sendToApp(request);
  return { status: response.status, body: (await response.json()) as any };
}

describe("the Setup page's examples run as shown", () => {
  test("headless: the exchange, then each operation with its authorization", async () => {
    const shop = await givenDirectShop();
    const [exchange, operations] = (await setupExamples(shop)).headless;
    const [exchangeRequest] = curlRequests(
      exchange!.code.replace("<Customer Account API access token>", CUSTOMER.customerAccountAccessToken),
    );
    const exchanged = await send(exchangeRequest!);
    expect(exchanged).toMatchObject({ status: 200, body: { ok: true } });
    const authorization: string = exchanged.body.data.authorization;

    const requests = curlRequests(operations!.code.replaceAll("Bearer eyJ...", authorization));
    expect(requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      "POST /api/headless/save",
      "GET /api/headless/list",
      "GET /api/headless/is-saved",
    ]);
    const answers = [];
    for (const request of requests) answers.push(await send(request));
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    expect(answers[2]!.body.data).toMatchObject({ saved: true });
  });

  test("customer account: the extension's snippet exchanges its session token and saves", async () => {
    const shop = await givenDirectShop();
    const [example] = (await setupExamples(shop)).customerAccount;
    const sessionToken = await customerAccountSessionToken({ shop, ...app, customerGid: CUSTOMER.id });
    const answers: { status: number; body: any }[] = [];
    // The extension's globals: its session token API, and fetch (here to the app's handler).
    const shopify = { sessionToken: { get: async () => sessionToken } };
    const fetchToApp = async (url: string, init: RequestInit) => {
      const response = await sendToApp(new Request(url, init));
      const body = await response.json();
      answers.push({ status: response.status, body });
      return { json: async () => body };
    };
    const AsyncFunction = (async () => undefined).constructor as new (
      ...args: string[]
    ) => (...args: unknown[]) => Promise<void>;
    await new AsyncFunction("shopify", "fetch", example!.code)(shopify, fetchToApp);
    expect(answers).toHaveLength(2);
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, body: { ok: true } });
  });
});
