/* A stand-in for https://telegram.org/js/telegram-web-app.js in the browser
 * tests: the same Telegram.WebApp surface the page uses, configured by the
 * test (window.__TG_STUB__, set by an init script before the page loads),
 * recording every call in window.__calls as [name, ...arguments]. An empty
 * initData is what the real script gives a page opened outside Telegram.
 * Without a configuration it reads what Telegram's clients put in the
 * address's fragment (#tgWebAppData=…&tgWebAppVersion=…&tgWebAppPlatform=…
 * &tgWebAppThemeParams=…), as the real script does. */
(function () {
  "use strict";
  var config = window.__TG_STUB__ || fromFragment(location.hash);
  var calls = (window.__calls = []);
  var handlers = {};
  var mainHandlers = [];

  function record(name) {
    return function () {
      calls.push([name].concat(Array.prototype.slice.call(arguments)));
    };
  }

  function parseVersion(v) {
    return String(v).split(".").map(Number);
  }

  var version = config.version || "8.0";
  var main = {
    text: "",
    isVisible: false,
    isActive: true,
    isProgressVisible: false,
    setText: function (text) {
      calls.push(["MainButton.setText", text]);
      main.text = text;
      return main;
    },
    show: function () {
      calls.push(["MainButton.show"]);
      main.isVisible = true;
      return main;
    },
    hide: function () {
      calls.push(["MainButton.hide"]);
      main.isVisible = false;
      return main;
    },
    enable: function () {
      calls.push(["MainButton.enable"]);
      main.isActive = true;
      return main;
    },
    disable: function () {
      calls.push(["MainButton.disable"]);
      main.isActive = false;
      return main;
    },
    showProgress: function (leaveActive) {
      calls.push(["MainButton.showProgress", leaveActive]);
      main.isProgressVisible = true;
      return main;
    },
    hideProgress: function () {
      calls.push(["MainButton.hideProgress"]);
      main.isProgressVisible = false;
      return main;
    },
    setParams: function (params) {
      calls.push(["MainButton.setParams", params]);
      return main;
    },
    onClick: function (fn) {
      calls.push(["MainButton.onClick"]);
      mainHandlers.push(fn);
      return main;
    },
    offClick: function (fn) {
      mainHandlers = mainHandlers.filter(function (f) { return f !== fn; });
      return main;
    },
  };

  var webApp = {
    initData: config.initData || "",
    initDataUnsafe: config.initDataUnsafe || {},
    version: version,
    platform: config.platform || "tdesktop",
    colorScheme: config.colorScheme || "light",
    themeParams: config.themeParams || {},
    safeAreaInset: config.safeAreaInset || { top: 0, bottom: 0, left: 0, right: 0 },
    contentSafeAreaInset: config.contentSafeAreaInset || { top: 0, bottom: 0, left: 0, right: 0 },
    isExpanded: false,
    isVersionAtLeast: function (v) {
      var a = parseVersion(version);
      var b = parseVersion(v);
      for (var i = 0; i < Math.max(a.length, b.length); i++) {
        if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
      }
      return true;
    },
    ready: record("ready"),
    expand: function () {
      calls.push(["expand"]);
      webApp.isExpanded = true;
    },
    close: record("close"),
    enableClosingConfirmation: record("enableClosingConfirmation"),
    disableClosingConfirmation: record("disableClosingConfirmation"),
    disableVerticalSwipes: record("disableVerticalSwipes"),
    enableVerticalSwipes: record("enableVerticalSwipes"),
    onEvent: function (name, fn) {
      calls.push(["onEvent", name]);
      (handlers[name] = handlers[name] || []).push(fn);
    },
    offEvent: function (name, fn) {
      handlers[name] = (handlers[name] || []).filter(function (f) { return f !== fn; });
    },
    MainButton: main,
    HapticFeedback: {
      impactOccurred: record("HapticFeedback.impactOccurred"),
      notificationOccurred: record("HapticFeedback.notificationOccurred"),
      selectionChanged: record("HapticFeedback.selectionChanged"),
    },
  };

  window.Telegram = { WebApp: webApp };
  // For the test: press the MainButton as Telegram's client would.
  window.__pressMainButton = function () {
    mainHandlers.forEach(function (fn) { fn(); });
  };
  // For the test: an event of Telegram's client ("deactivated", "themeChanged" …).
  window.__telegramEvent = function (name) {
    (handlers[name] || []).forEach(function (fn) { fn.call(webApp); });
  };

  function fromFragment(hash) {
    var params = new URLSearchParams(String(hash).replace(/^#/, ""));
    var initData = params.get("tgWebAppData") || "";
    var unsafe = {};
    new URLSearchParams(initData).forEach(function (value, key) {
      var parsed = value;
      if (key === "user" || key === "receiver" || key === "chat") {
        try { parsed = JSON.parse(value); } catch (e) { parsed = value; }
      }
      unsafe[key] = parsed;
    });
    var theme = {};
    try { theme = JSON.parse(params.get("tgWebAppThemeParams") || "{}"); } catch (e) { theme = {}; }
    return {
      initData: initData,
      initDataUnsafe: unsafe,
      version: params.get("tgWebAppVersion") || "6.0",
      platform: params.get("tgWebAppPlatform") || "unknown",
      themeParams: theme,
    };
  }
})();
