/**
 * The page's part of the sign-in button (`sign_in.ts` is the server's): a
 * load error of an MCP server that needs a sign-in (`mcp:NAME`, listed in the
 * view's `sign_ins`) gets a "Sign in to NAME" button beside its message (the
 * `magi-tools login NAME` text stays as the fallback). A click POSTs
 * `/api/sign-in` and opens the authorization URL it answers in a new tab
 * (`noopener,noreferrer`: the authorization server sees neither this page nor
 * its URL), and shows that URL as a link as well, for when a popup blocker
 * stopped the tab. The state (waiting, failed and why) comes back in every
 * `tools` view; once signed in, the server's error goes and its tools come
 * with the next view.
 *
 * Plain browser JavaScript appended to the page's script (`page.ts`), which
 * calls {@link SIGN_IN_SCRIPT}'s `signInControls(error)` for each load error
 * and provides `h`, `api`, `state` and `showTools`; no template literals.
 *
 * @module
 */

/** CSS of the sign-in controls. */
export const SIGN_IN_STYLE = String.raw`
.sign-in { margin: .25em 0 .25em 1em; display: flex; gap: .5em; align-items: center; flex-wrap: wrap; }
.sign-in a { overflow-wrap: anywhere; }
`;

/** The script: `signInControls(error)` → an element or null. */
export const SIGN_IN_SCRIPT = String.raw`
// ---- Sign-in (sign_in_page.ts) ----
// What this page learned from its own clicks, by server: the authorization URL, or the refusal.
const signInAnswers = new Map();

function signInControls(error) {
  const sign = (state.view.sign_ins || []).find((s) => "mcp:" + s.server === error.file);
  if (!sign) return null;
  const answer = signInAnswers.get(sign.server) || {};
  // Enabled while a flow waits too: the server answers the same URL (never a second listener).
  const button = h("button", { "data-test": "sign-in-" + sign.server,
    text: "Sign in to " + sign.server, disabled: answer.busy === true });
  button.addEventListener("click", () => startSignIn(sign.server));
  const box = h("div", { class: "sign-in", "data-test": "sign-in" }, button);
  if (sign.state === "pending") {
    box.append(h("span", { class: "muted", "data-test": "sign-in-status",
      text: "Waiting for the sign-in in the new tab…" }));
    if (answer.url) {
      box.append(h("span", { class: "muted", text: "No tab? Open " }),
        h("a", { href: answer.url, target: "_blank", rel: "noopener noreferrer",
          "data-test": "sign-in-link", text: answer.url }));
    }
  } else if (answer.error || sign.state === "failed") {
    box.append(h("span", { class: "badge bad", "data-test": "sign-in-status",
      text: "Sign-in failed: " + (answer.error || sign.message) }));
  }
  return box;
}

async function startSignIn(server) {
  signInAnswers.set(server, { busy: true });
  if (state.view) showTools(state.view);
  try {
    const answer = await api("POST", "/api/sign-in", { server });
    if (answer.status === "pending") {
      signInAnswers.set(server, { url: answer.authorization_url });
      window.open(answer.authorization_url, "_blank", "noopener,noreferrer");
    }
  } catch (e) {
    signInAnswers.set(server, { error: e.message });
  }
  if (state.view) showTools(state.view);
}
`;
