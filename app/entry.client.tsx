import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

// Spec §8: a failed chunk load (e.g. assets replaced by a new deployment) reloads the page.
window.addEventListener("vite:preloadError", (event) => {
  event.preventDefault();
  window.location.reload();
});

const hydrate = () =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });

// Only the routes that ask for it (handle.hydrate) ever load this. The server's page is painted
// first and hydrated after: with the scripts cached, hydrating before the first paint would hold
// the page blank for the whole of hydration on a slow CPU.
requestAnimationFrame(() => setTimeout(hydrate, 0));
