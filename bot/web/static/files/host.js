/* Where the arranging page runs, learned in one place (docs/discord.md,
 * docs/webapp.md): app.js reads window.PageHost and adapts.
 *
 * - "discord": inside Discord's client as an Activity. Discord frames the
 *   page with frame_id, instance_id and platform in its address. The
 *   Embedded App SDK (vendored, loaded only here) does the handshake; its
 *   authorize gives an OAuth2 code, which the server checks with Discord
 *   and trades for the page's pass (POST /api/activity); the SDK then
 *   authenticates with the access token the server returns.
 * - "telegram": a Telegram Mini App (Telegram's script, with launch data).
 * - "link": a plain browser tab opened by the signed link (#pass=…).
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var query = new URLSearchParams(location.search);
  var tg = window.Telegram && window.Telegram.WebApp ? window.Telegram.WebApp : null;
  var discord = !!(query.get("frame_id") && query.get("instance_id") && query.get("platform"));
  var kind = discord ? "discord" : tg && tg.initData ? "telegram" : "link";
  var clientId = (script && script.getAttribute("data-client-id")) || "";
  document.documentElement.setAttribute("data-host", kind);
  if (discord) document.documentElement.setAttribute("data-platform", query.get("platform"));

  // The SDK is asked for at once (beside the page's own files), and only
  // inside Discord: a Telegram or link page never loads it.
  var sdkLoaded = null;
  if (discord) {
    sdkLoaded = new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = script.getAttribute("data-sdk-src");
      tag.onload = resolve;
      tag.onerror = function () { reject(new Error("the Discord SDK did not load")); };
      document.head.appendChild(tag);
    });
  }

  /** Discord's way in: ``post(path, body)`` is the page's API call. Resolves
   * to the server's answer ({pass, hand}). */
  function discordSession(post) {
    if (!clientId) return Promise.reject(new Error("the Discord Activity is not on"));
    return sdkLoaded.then(function () {
      var sdk = new window.DiscordSDK(clientId, { disableConsoleLogOverride: true });
      return sdk.ready()
        .then(function () {
          return sdk.commands.authorize({
            client_id: clientId,
            response_type: "code",
            state: "",
            prompt: "none",
            scope: ["identify"],
          });
        })
        .then(function (granted) {
          return post("../api/activity", { code: granted.code, instance_id: sdk.instanceId });
        })
        .then(function (out) {
          return sdk.commands.authenticate({ access_token: out.access_token }).then(function () {
            return { pass: out.pass, hand: out.hand };
          });
        });
    });
  }

  window.PageHost = {
    kind: kind,
    // Telegram's WebApp object where it is Telegram's page (the script is
    // loaded in a plain browser too, with no launch data), never in Discord.
    telegram: discord ? null : tg,
    discordSession: discordSession,
  };
})();
