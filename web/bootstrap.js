// Loads the app relative to this page, so the site works from any sub-path.
import init from "./ragtrace-web.js";

function showFatal(message) {
  if (document.querySelector(".fatal-banner")) {
    return;
  }
  const banner = document.createElement("div");
  banner.className = "fatal-banner";
  banner.setAttribute("role", "alert");
  banner.textContent = message;
  document.body.prepend(banner);
}

// The site's wasm aborts on a panic without formatting a message (the panic
// machinery costs 9 KB of gzipped wasm): the abort reaches here as a
// WebAssembly.RuntimeError thrown out of whatever the page was doing, and the
// page says so instead of going quietly dead. Builds with the panic message
// (tests, `trunk serve`) show it from the Rust panic hook first.
function onWasmAbort(error) {
  if (error instanceof WebAssembly.RuntimeError) {
    showFatal(
      `ragtrace hit an internal error and stopped responding; reload the page. (${error.message})`,
    );
  }
}
window.addEventListener("error", (event) => onWasmAbort(event.error));
window.addEventListener("unhandledrejection", (event) => onWasmAbort(event.reason));

init({ module_or_path: new URL("./ragtrace-web_bg.wasm", import.meta.url) }).catch((error) => {
  showFatal(`ragtrace could not start: ${error}`);
});
