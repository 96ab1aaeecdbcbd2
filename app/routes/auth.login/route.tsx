import { useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AppProvider, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import polarisTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { LoginErrorType } from "@shopify/shopify-app-remix/server";
import { readBodyText } from "~/edge/request-input.server";
import { login } from "~/shopify.server";
import { loginErrorMessage, type LoginErrors } from "./error.server";

/** A shop domain fits many times over; anything longer is not a login form. */
const MAX_FORM_BYTES = 4096;

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

/**
 * The library's login path (authPathPrefix + "/login"): where it sends a merchant who opens the
 * app outside the admin. A shop in the query starts the install or login at once.
 */
export const loader = async ({ request }: LoaderFunctionArgs): Promise<{ errors: LoginErrors }> => ({
  errors: loginErrorMessage(await login(request)),
});

/**
 * The form's shop goes to the library's login, which redirects to the platform for that shop. The
 * library would read any body with request.formData(), which fails on a body that is not a form
 * and buffers one of any size; so the shop is read here, bounded, and handed over in the query.
 */
export const action = async ({ request }: ActionFunctionArgs): Promise<{ errors: LoginErrors }> => {
  const shop = await submittedShop(request);
  if (!shop) return { errors: loginErrorMessage({ shop: LoginErrorType.MissingShop }) };
  const url = new URL(request.url);
  url.searchParams.set("shop", shop);
  return { errors: loginErrorMessage(await login(new Request(url, { method: "POST" }))) };
};

async function submittedShop(request: Request): Promise<string> {
  const fromQuery = new URL(request.url).searchParams.get("shop");
  if (fromQuery) return fromQuery.trim();
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(request.headers.get("Content-Type") ?? "")) return "";
  try {
    return new URLSearchParams(await readBodyText(request, MAX_FORM_BYTES)).get("shop")?.trim() ?? "";
  } catch {
    // Too large or not UTF-8: no shop domain was sent.
    return "";
  }
}

export default function Login() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { errors } = actionData ?? loaderData;
  const [shop, setShop] = useState("");
  return (
    <AppProvider i18n={polarisTranslations}>
      <Page narrowWidth>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text variant="headingMd" as="h1">
                Log in to Saved Items
              </Text>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit variant="primary">
                Log in
              </Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </AppProvider>
  );
}
