/**
 * What a server's name and its agent's node channel look like, for the configuration (PANEL_NODE,
 * PANEL_AGENT_URL) and `panel node add` alike.
 */

/** Lower-case letters, digits and inner hyphens, up to 63 (a DNS label). */
export const NODE_NAME_PATTERN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** `http://host:port`: plain HTTP on the servers' private network, nothing after the port. */
export const CHANNEL_URL_PATTERN = /^http:\/\/[^/?#\s]+:\d{1,5}\/?$/;
