import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { WeftMcpError } from '../errors/weft-mcp-error.js';
import { type OpenClient, openClient } from './open-transport.js';
import type { McpServerLocation } from './server-options.js';

/** How a connection is named and how long its connect may take. */
export interface McpConnectionSettings {
  /** Names the server in error messages. */
  readonly label: string;
  /** How long the server may take to answer `initialize` (a stdio server's start included). */
  readonly connectTimeoutMs: number;
}

/** Which of a server's lists changed. */
export type McpListKind = 'tools' | 'resources' | 'prompts';

/**
 * One MCP server's connection, opened on first use and opened again on the next use after it broke (a
 * stdio server that crashed is started anew). Tells listeners when the server says a list changed, or
 * when it (re)connects, since a new process may offer other tools.
 */
export class McpConnection {
  readonly label: string;
  readonly #location: McpServerLocation;
  readonly #connectTimeoutMs: number;
  #open: Promise<OpenClient> | undefined;
  #current: OpenClient | undefined;
  /** The stderr of the last process started: still readable after it crashed. */
  #lastStderr: () => string = () => '';
  /** Ends the connect under way (close). */
  readonly #closing = new AbortController();
  #closed = false;
  #generation = 0;
  readonly #listeners = new Set<(kind: McpListKind) => void>();

  constructor(location: McpServerLocation, settings: McpConnectionSettings) {
    this.#location = location;
    this.label = settings.label;
    this.#connectTimeoutMs = settings.connectTimeoutMs;
  }

  /** Counts connections made: a call may compare it to tell a restart. */
  get generation(): number {
    return this.#generation;
  }

  /** The transport of the live connection, if any. */
  get transport(): OpenClient['transport'] | undefined {
    return this.#current?.transport;
  }

  /** The connected client, connecting (or restarting the server) first when needed. */
  async client(): Promise<Client> {
    if (this.#closed)
      throw new WeftMcpError('CLOSED', `MCP server "${this.label}": the connection is closed`);
    this.#open ??= this.#connect();
    try {
      return (await this.#open).client;
    } catch (error) {
      this.#open = undefined;
      throw error;
    }
  }

  /** What the last stdio server started wrote to stderr (also once it has crashed). */
  stderr(): string {
    return this.#lastStderr();
  }

  /** Calls `listener` when a list changes; returns the function that stops it. */
  onListChanged(listener: (kind: McpListKind) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Closes the connection (stops a stdio server); later calls fail with `CLOSED`. A connect under way
   * ends at once (its server process stopped) and its callers get `CLOSED`.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    const open = this.#open;
    this.#open = undefined;
    const current = await open?.catch(() => undefined);
    if (!current) return;
    current.untrack();
    await current.client.close();
  }

  async #connect(): Promise<OpenClient> {
    const opened = await openClient(this.#location, {
      label: this.label,
      timeoutMs: this.#connectTimeoutMs,
      signal: this.#closing.signal,
    });
    this.#lastStderr = opened.stderr;
    if (this.#closed) {
      opened.untrack();
      await opened.client.close();
      throw new WeftMcpError('CLOSED', `MCP server "${this.label}": the connection is closed`);
    }
    const { client } = opened;
    const tell = (kind: McpListKind) => () => {
      for (const listener of this.#listeners) listener(kind);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, tell('tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, tell('resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, tell('prompts'));
    client.onclose = () => {
      // The server went away (crashed, or the HTTP session ended): the next use connects again.
      opened.untrack();
      if (this.#current === opened) {
        this.#current = undefined;
        this.#open = undefined;
      }
    };
    this.#current = opened;
    this.#generation++;
    if (this.#generation > 1) for (const kind of ['tools', 'resources', 'prompts'] as const) tell(kind)();
    return opened;
  }
}
