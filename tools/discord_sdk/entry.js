// The part of the SDK the page uses, as one global: window.DiscordSDK.
import { DiscordSDK } from "@discord/embedded-app-sdk";
window.DiscordSDK = DiscordSDK;
