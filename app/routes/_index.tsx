import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { Form } from "@remix-run/react";

// A shop parameter means the platform is opening the app in the admin; anyone else gets the
// landing page, whose form starts the library's login for the shop they name.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  return null;
};

export default function Landing() {
  return (
    <main style={{ maxWidth: "32rem", margin: "4rem auto", padding: "0 1rem", fontFamily: "system-ui, sans-serif" }}>
      <h1>Saved Items</h1>
      <p>
        Let your customers save products, variants and collections into wishlists, on your online store, in their
        customer account and in headless storefronts.
      </p>
      <Form method="post" action="/auth/login">
        <label style={{ display: "grid", gap: "0.25rem", marginBottom: "0.75rem" }}>
          <span>Shop domain</span>
          <input type="text" name="shop" placeholder="example.myshopify.com" autoComplete="on" required />
        </label>
        <button type="submit">Log in</button>
      </Form>
    </main>
  );
}
