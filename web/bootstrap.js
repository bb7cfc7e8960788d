// Loads the app relative to this page, so the site works from any sub-path.
import init from "./ragtrace-web.js";

init({ module_or_path: new URL("./ragtrace-web_bg.wasm", import.meta.url) }).catch((error) => {
  const banner = document.createElement("div");
  banner.className = "fatal-banner";
  banner.textContent = `ragtrace could not start: ${error}`;
  document.body.prepend(banner);
});
