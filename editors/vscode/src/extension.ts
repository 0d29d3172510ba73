// VS Code client for flowdrop-lsp: starts `flowdrop-lsp serve` (stdio) for
// FlowDrop workflow documents (*.flowdrop.json, Drupal config workflows
// flowdrop_workflow.flowdrop_workflow.<id>.yml/.yaml, and the `flowdrop.files` globs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  type DocumentSelector,
  type Executable,
  type LanguageClientOptions,
  TransportKind,
} from 'vscode-languageclient/node';

const SECTION = 'flowdrop';
/** Always selected, whatever `flowdrop.files` says: FlowDrop's JSON files and Drupal's
 *  config entities (config/sync/flowdrop_workflow.flowdrop_workflow.<id>.yml). */
const DEFAULT_GLOBS = ['**/*.flowdrop.json', '**/flowdrop_workflow.flowdrop_workflow.*.{yml,yaml}'];
/** `yaml` is VS Code's built-in language id for .yml/.yaml (Red Hat's YAML extension
 *  keeps it): we contribute no language, we only attach to matching documents. */
const LANGUAGES = ['json', 'jsonc', 'yaml'];
const EXECUTABLE = 'flowdrop-lsp';

/** Settings whose change needs a new server process (or a new document selector). */
const RESTART_SETTINGS = [`${SECTION}.files`, `${SECTION}.server.path`, `${SECTION}.server.args`];

let output: vscode.LogOutputChannel;
let traceChannel: TraceChannel;
let client: LanguageClient | undefined;
let starting: Promise<void> | undefined;
/** Set when the server could not be found/started: no automatic retry on every
 *  opened document (one error message, not one per file) until the settings
 *  change or "FlowDrop: Restart Language Server" is run. */
let startFailed = false;
let selector: DocumentSelector = [];

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('FlowDrop', { log: true });
  traceChannel = new TraceChannel(output);
  context.subscriptions.push(output, traceChannel);
  selector = buildSelector();

  context.subscriptions.push(
    vscode.commands.registerCommand(`${SECTION}.restartServer`, async () => {
      output.info('Restart requested');
      startFailed = false;
      await stopClient();
      selector = buildSelector();
      await startClient();
    }),
    vscode.workspace.onDidOpenTextDocument((doc) => {
      if (!client && !startFailed && isWorkflow(doc)) void startClient();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      // Relative globs in `flowdrop.files` are anchored at workspace folders.
      void restartIfRunning('workspace folders changed');
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.trace.server`)) traceChannel.refresh();
      if (RESTART_SETTINGS.some((s) => e.affectsConfiguration(s))) {
        startFailed = false;
        void restartIfRunning('settings changed');
      }
    }),
    { dispose: () => void stopClient() },
  );

  // Start lazily: only once a FlowDrop workflow document is open, so that
  // opening an unrelated JSON file never spawns the server.
  if (vscode.workspace.textDocuments.some(isWorkflow)) {
    await startClient();
  }
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

/**
 * The LSP trace goes to the "FlowDrop" channel. vscode-languageclient 11 only
 * traces when the trace channel's log level is Trace; this wrapper makes the
 * `flowdrop.trace.server` setting alone enough ("messages"/"verbose" turn the
 * trace on and it is written at info level), and still honours "Developer: Set
 * Log Level... > Trace" on the channel when the setting is "off".
 */
class TraceChannel implements vscode.LogOutputChannel {
  private readonly emitter = new vscode.EventEmitter<vscode.LogLevel>();
  private readonly sub: vscode.Disposable;
  readonly onDidChangeLogLevel = this.emitter.event;

  constructor(private readonly target: vscode.LogOutputChannel) {
    this.sub = target.onDidChangeLogLevel(() => this.refresh());
  }
  private get enabled(): boolean {
    const value = config().get<string>('trace.server', 'off');
    return value === 'messages' || value === 'verbose';
  }
  get name(): string {
    return this.target.name;
  }
  get logLevel(): vscode.LogLevel {
    return this.enabled ? vscode.LogLevel.Trace : this.target.logLevel;
  }
  refresh(): void {
    this.emitter.fire(this.logLevel);
  }
  trace(message: string, ...args: unknown[]): void {
    if (this.enabled) this.target.info(message, ...args);
    else this.target.trace(message, ...args);
  }
  debug(message: string, ...args: unknown[]): void {
    this.target.debug(message, ...args);
  }
  info(message: string, ...args: unknown[]): void {
    this.target.info(message, ...args);
  }
  warn(message: string, ...args: unknown[]): void {
    this.target.warn(message, ...args);
  }
  error(error: string | Error, ...args: unknown[]): void {
    this.target.error(error, ...args);
  }
  append(value: string): void {
    this.target.append(value);
  }
  appendLine(value: string): void {
    this.target.appendLine(value);
  }
  replace(value: string): void {
    this.target.replace(value);
  }
  clear(): void {
    this.target.clear();
  }
  show(columnOrPreserve?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    if (typeof columnOrPreserve === 'boolean' || columnOrPreserve === undefined) this.target.show(columnOrPreserve);
    else this.target.show(columnOrPreserve, preserveFocus);
  }
  hide(): void {
    this.target.hide();
  }
  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

/** The `flowdrop` section as plain JSON (same shape as workspace/configuration returns). */
function settingsSnapshot(): unknown {
  const value = vscode.workspace.getConfiguration().get(SECTION) ?? {};
  return JSON.parse(JSON.stringify(value));
}

function globs(): string[] {
  const configured = config().get<unknown>('files');
  const list = Array.isArray(configured) ? configured : [];
  const out = [...DEFAULT_GLOBS];
  for (const g of list) {
    if (typeof g === 'string' && g.trim() !== '' && !out.includes(g.trim())) out.push(g.trim());
  }
  return out;
}

interface Filter {
  language: string;
  glob: string;
  folder?: vscode.WorkspaceFolder;
}

/**
 * FlowDrop workflow files only. Never a bare `{language: 'json'}` or
 * `{language: 'yaml'}` (that would also grab settings.json, package.json,
 * docker-compose.yml, ...). Untitled documents are excluded.
 * Globs starting with "**" + "/" or absolute ones match anywhere; other globs are
 * relative to each workspace folder.
 */
function filters(): Filter[] {
  const result: Filter[] = [];
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const glob of globs()) {
    const anchored = glob.startsWith('**/') || path.isAbsolute(glob);
    for (const language of LANGUAGES) {
      if (anchored || folders.length === 0) result.push({ language, glob });
      else for (const folder of folders) result.push({ language, glob, folder });
    }
  }
  return result;
}

function buildSelector(): DocumentSelector {
  return filters().map(({ language, glob, folder }) => ({
    scheme: 'file',
    language,
    pattern: folder ? { baseUri: folder.uri.toString(), pattern: glob } : glob,
  }));
}

function isWorkflow(doc: vscode.TextDocument): boolean {
  if (doc.uri.scheme !== 'file' || !LANGUAGES.includes(doc.languageId)) return false;
  const vsSelector: vscode.DocumentFilter[] = filters().map(({ language, glob, folder }) => ({
    scheme: 'file',
    language,
    pattern: folder ? new vscode.RelativePattern(folder, glob) : glob,
  }));
  return vscode.languages.match(vsSelector, doc) > 0;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findOnPath(name: string): string | undefined {
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

async function showSetupError(message: string): Promise<void> {
  output.error(message);
  const openSettings = 'Open Settings';
  const showOutput = 'Show Output';
  const choice = await vscode.window.showErrorMessage(message, openSettings, showOutput);
  if (choice === openSettings) {
    await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server.path`);
  } else if (choice === showOutput) {
    output.show(true);
  }
}

/** Resolve the server command, or report (naming the setting to fix) and return undefined. */
function resolveServer(): Executable | undefined {
  const cfg = config();
  const configuredPath = (cfg.get<string | null>('server.path') ?? '').trim();
  const rawArgs = cfg.get<unknown>('server.args');
  const args =
    Array.isArray(rawArgs) && rawArgs.every((a) => typeof a === 'string') ? (rawArgs as string[]) : ['serve'];

  let command: string | undefined;
  if (configuredPath) {
    const expanded = configuredPath.startsWith('~/')
      ? path.join(process.env.HOME ?? '', configuredPath.slice(2))
      : configuredPath;
    if (!path.isAbsolute(expanded) || !isExecutableFile(expanded)) {
      void showSetupError(
        `FlowDrop: the setting "${SECTION}.server.path" is "${configuredPath}", which is not an executable file. ` +
          'Fix "flowdrop.server.path" (absolute path to flowdrop-lsp), or clear it to use flowdrop-lsp from PATH.',
      );
      return undefined;
    }
    command = expanded;
  } else {
    command = findOnPath(EXECUTABLE);
    if (!command) {
      void showSetupError(
        `FlowDrop: could not find "${EXECUTABLE}" on PATH. Install it (pip install flowdrop-lsp) ` +
          'or set "flowdrop.server.path" to the absolute path of the flowdrop-lsp executable.',
      );
      return undefined;
    }
  }

  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return { command, args, transport: TransportKind.stdio, options: cwd ? { cwd } : {} };
}

async function startClient(): Promise<void> {
  if (client) return;
  if (starting) return starting;
  starting = (async () => {
    const server = resolveServer();
    if (!server) {
      startFailed = true;
      return;
    }
    output.info(`Starting ${server.command} ${(server.args ?? []).join(' ')}`);

    const clientOptions: LanguageClientOptions = {
      documentSelector: selector,
      outputChannel: output,
      traceOutputChannel: traceChannel,
      // The flowdrop settings, plus `pullDiagnostics: false`: the server pushes
      // diagnostics; if it also answered textDocument/diagnostic, VS Code would
      // keep both sets apart and show every problem twice.
      initializationOptions: { ...(settingsSnapshot() as object), pullDiagnostics: false },
      synchronize: { configurationSection: SECTION },
      // Start-up failures are reported by us (with the setting to fix).
      initializationFailedHandler: () => false,
    };
    const c = new LanguageClient(SECTION, 'FlowDrop Language Server', server, clientOptions);
    try {
      await c.start();
      client = c;
      output.info('FlowDrop language server started');
    } catch (err) {
      startFailed = true;
      const detail = err instanceof Error ? err.message : String(err);
      try {
        await c.dispose(2000);
      } catch {
        /* the process never came up */
      }
      void showSetupError(
        `FlowDrop: failed to start the language server "${server.command} ${(server.args ?? []).join(' ')}": ` +
          `${detail}. See the FlowDrop output; check the settings "flowdrop.server.path" and "flowdrop.server.args".`,
      );
    }
  })();
  try {
    await starting;
  } finally {
    starting = undefined;
  }
}

async function stopClient(): Promise<void> {
  if (starting) {
    try {
      await starting;
    } catch {
      /* reported already */
    }
  }
  const c = client;
  client = undefined;
  if (!c) return;
  try {
    await c.stop(5000);
  } catch (err) {
    output.warn(`Stopping the server failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function restartIfRunning(reason: string): Promise<void> {
  selector = buildSelector();
  if (!client) {
    if (vscode.workspace.textDocuments.some(isWorkflow)) await startClient();
    return;
  }
  output.info(`Restarting the server: ${reason}`);
  await stopClient();
  await startClient();
}
