import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

// The app lives inside the admin; a shop parameter means the platform is opening it there.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  return new Response("Saved Items: install it from the app store.", { headers: { "Content-Type": "text/plain" } });
};
