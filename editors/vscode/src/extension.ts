// VS Code client for flowdrop-lsp: starts `flowdrop-lsp serve` (stdio) once a document
// that may be a FlowDrop workflow is open (*.flowdrop.json, Drupal config workflows
// flowdrop_workflow.flowdrop_workflow.<id>.yml/.yaml, the `flowdrop.files` globs, or JSON/YAML
// holding `nodes` and `edges`, as `flowdrop-lsp check` judges files by content), then gives it
// every JSON/JSONC/YAML file: the server reports on workflows and says nothing about the rest.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { expandPath } from './paths';
import { mayBeWorkflow } from './workflows';
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

/** Settings whose change needs a new server process (or a new document selector; or, for
 *  json.validate.enable, diagnostics filtered anew). */
const RESTART_SETTINGS = [`${SECTION}.files`, `${SECTION}.server.path`, `${SECTION}.server.args`, 'json.validate.enable'];
/** The files package.json's `jsonValidation` gives the workflow schema to VS Code's JSON support. */
const SCHEMA_FILE_SUFFIX = '.flowdrop.json';
const SCHEMA_RULE = 'FD-SCHEMA';

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
  extensionRoot = context.extensionPath;
  subscriptions = context.subscriptions;
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
    // A new file becomes a workflow when one is pasted into it: look again when it is saved.
    vscode.workspace.onDidSaveTextDocument((doc) => {
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

  // Start lazily: only once a document that may be a workflow is open, so that
  // opening package.json, tsconfig.json or docker-compose.yml never spawns the server.
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
 * The workflow files by name (to start the server for). Globs starting with "**" + "/" or
 * absolute ones match anywhere; other globs are relative to each workspace folder.
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

/**
 * Every JSON, JSONC and YAML file (scheme `file`: not VS Code's own settings, not untitled
 * documents). A selector cannot look at content, and a workflow may have any name, as in
 * `flowdrop-lsp check`: the server judges each document and publishes nothing for the others
 * (package.json, tsconfig.json: no diagnostics, no message). The server itself is only started
 * once a document `isWorkflow` is open.
 */
function buildSelector(): DocumentSelector {
  return LANGUAGES.map((language) => ({ scheme: 'file', language }));
}

/** A node-type definition (config/sync/flowdrop_node_type.flowdrop_node_type.<id>.yml): the
 *  server judges it too (its shape, its parameters), so opening one alone starts it. */
const NODE_TYPE_FILE = /(^|\/)flowdrop_node_type\.flowdrop_node_type\.[^/]+\.ya?ml$/;

/** Named like a workflow or a node type, or holding `nodes` and `edges` (see ./workflows). */
function isWorkflow(doc: vscode.TextDocument): boolean {
  if (doc.uri.scheme !== 'file' || !LANGUAGES.includes(doc.languageId)) return false;
  return isWorkflowByName(doc) || NODE_TYPE_FILE.test(doc.uri.path) || mayBeWorkflow(doc.getText());
}

function isWorkflowByName(doc: vscode.TextDocument): boolean {
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
    // The setting is a plain string, so the Settings editor shows an input box for it.
    await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server.path`);
  } else if (choice === showOutput) {
    output.show(true);
  }
}

function workspaceFolders(): { name: string; fsPath: string }[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, fsPath: f.uri.fsPath }));
}

/** The Python extension's API (ms-python.python): only the parts used here. */
interface PythonExtensionApi {
  ready?: Promise<void>;
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string };
    resolveEnvironment(env: { path: string } | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
  settings?: { getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined } };
}

async function pythonExtension(): Promise<PythonExtensionApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>('ms-python.python');
  if (!extension) return undefined;
  try {
    return extension.isActive ? extension.exports : await extension.activate();
  } catch (err) {
    output.warn(`The Python extension did not activate: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** The interpreter selected in the Python extension, as a command (it may need arguments). */
async function selectedInterpreter(): Promise<string[] | undefined> {
  const api = await pythonExtension();
  if (!api) return undefined;
  if (!interpreterWatch && api.environments?.onDidChangeActiveEnvironmentPath) {
    // The bundled server runs on the selected interpreter: a new selection means a new process.
    interpreterWatch = api.environments.onDidChangeActiveEnvironmentPath(() => {
      startFailed = false;
      void restartIfRunning('the Python interpreter selection changed');
    });
    subscriptions?.push(interpreterWatch);
  }
  const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
  try {
    await api.ready; // the Python extension's settings are read once it is ready
    if (api.environments) {
      const env = await api.environments.resolveEnvironment(api.environments.getActiveEnvironmentPath(resource));
      const exe = env?.executable.uri?.fsPath;
      if (exe) return [exe];
    }
    const command = api.settings?.getExecutionDetails(resource).execCommand;
    if (command && command.length > 0) return command;
  } catch (err) {
    output.warn(`Could not get the Python extension's interpreter: ${err instanceof Error ? err.message : String(err)}`);
  }
  return undefined;
}

interface LauncherCheck {
  ok: boolean;
  python?: string;
  message?: string | null;
}

/** Ask `python flowdrop_launcher.py --check` whether this Python can run the bundled server. */
function checkPython(command: string[], launcher: string): Promise<LauncherCheck> {
  return new Promise((resolve) => {
    execFile(command[0], [...command.slice(1), launcher, '--check'], { timeout: 20000 }, (err, stdout, stderr) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        const parsed = JSON.parse(line) as LauncherCheck;
        if (typeof parsed.ok === 'boolean') return resolve(parsed);
      } catch {
        /* not the launcher's answer: report what happened */
      }
      const why = err ? err.message.split('\n')[0] : 'no answer';
      resolve({ ok: false, message: `${command.join(' ')} could not run it (${why}${stderr.trim() ? `: ${stderr.trim().split('\n').pop()}` : ''})` });
    });
  });
}

/** The workspace's own server: <folder>/.venv/bin/flowdrop-lsp (only in a trusted workspace). */
function workspaceVenvServer(): string | undefined {
  if (!vscode.workspace.isTrusted) return undefined;
  const relative = process.platform === 'win32' ? ['.venv', 'Scripts', `${EXECUTABLE}.exe`] : ['.venv', 'bin', EXECUTABLE];
  for (const folder of workspaceFolders()) {
    const candidate = path.join(folder.fsPath, ...relative);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

let extensionRoot = '';
let subscriptions: vscode.Disposable[] | undefined;
let interpreterWatch: vscode.Disposable | undefined;

/**
 * The server to start, in this order (as Microsoft's Python-tool extensions do):
 * 1. `flowdrop.server.path` (with `${workspaceFolder}` and `~` expanded);
 * 2. the workspace's `.venv/bin/flowdrop-lsp` (a checkout after `make demo`, a project that pins
 *    its own version);
 * 3. the server bundled in the extension, run by the Python extension's selected interpreter or
 *    else `python3` on PATH, if it is Python >= 3.10 (the launcher checks).
 * Reports (naming what to fix) and returns undefined when none of them can be used.
 */
async function resolveServer(): Promise<Executable | undefined> {
  const cfg = config();
  const configuredPath = (cfg.get<string | null>('server.path') ?? '').trim();
  const rawArgs = cfg.get<unknown>('server.args');
  const args =
    Array.isArray(rawArgs) && rawArgs.every((a) => typeof a === 'string') ? (rawArgs as string[]) : ['serve'];
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const options = cwd ? { cwd } : {};

  if (configuredPath) {
    const expanded = expandPath(configuredPath, workspaceFolders(), os.homedir());
    if (!expanded || !isExecutableFile(expanded)) {
      const shown = expanded && expanded !== configuredPath ? ` (${expanded})` : '';
      void showSetupError(
        `FlowDrop: the setting "${SECTION}.server.path" is "${configuredPath}"${shown}, which is not an executable file. ` +
          `Fix "${SECTION}.server.path" (a flowdrop-lsp executable; \${workspaceFolder} and ~ are expanded), ` +
          'or clear it to use the server bundled with the extension.',
      );
      return undefined;
    }
    output.info(`Using the server from "${SECTION}.server.path": ${expanded}`);
    return { command: expanded, args, transport: TransportKind.stdio, options };
  }

  const venvServer = workspaceVenvServer();
  if (venvServer) {
    output.info(`Using the workspace's server: ${venvServer}`);
    return { command: venvServer, args, transport: TransportKind.stdio, options };
  }

  const launcher = path.join(extensionRoot, 'bundled', 'tool', 'flowdrop_launcher.py');
  const tried: string[] = [];
  const python = process.platform === 'win32' ? 'python' : 'python3';
  const candidates: [string, string[] | undefined, string][] = [
    [
      "the Python extension's selected interpreter",
      await selectedInterpreter(),
      vscode.extensions.getExtension('ms-python.python') ? 'none selected' : 'the Python extension is not installed',
    ],
    [`${python} on PATH`, findOnPath(python) ? [python] : undefined, 'not found'],
  ];
  for (const [what, command, missing] of candidates) {
    if (!command) {
      tried.push(`${what}: ${missing}`);
      continue;
    }
    const check = await checkPython(command, launcher);
    if (check.ok) {
      output.info(`Using the bundled server with ${what}: ${check.python ?? command.join(' ')}`);
      // -I: the bundled packages, not whatever PYTHONPATH or user site-packages hold.
      return { command: command[0], args: [...command.slice(1), '-I', launcher, ...args], transport: TransportKind.stdio, options };
    }
    tried.push(`${what}: ${check.message ?? 'unusable'}`);
  }
  void showSetupError(
    'FlowDrop: cannot start the language server bundled with this extension, which needs Python 3.10 or newer. ' +
      `Tried ${tried.join('; ')}. ` +
      'Install Python 3.10+ (and select it with "Python: Select Interpreter" if you use the Python extension), ' +
      `or set "${SECTION}.server.path" to a flowdrop-lsp executable, e.g. \${workspaceFolder}/.venv/bin/flowdrop-lsp.`,
  );
  return undefined;
}

/**
 * One report per structure problem. For `*.flowdrop.json`, VS Code's JSON support validates
 * against the workflow schema this extension contributes (and offers completion and hover from
 * it): while `json.validate.enable` is on for the document, the server's FD-SCHEMA findings for
 * it are the same problems again, so they are dropped here. YAML workflows, JSON workflows
 * selected by other `flowdrop.files` globs, and JSON with validation turned off keep FD-SCHEMA.
 */
function withoutSchemaDuplicates(uri: vscode.Uri, diagnostics: vscode.Diagnostic[]): vscode.Diagnostic[] {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const languageId = doc?.languageId ?? (uri.path.endsWith('.json') ? 'json' : '');
  if (!['json', 'jsonc'].includes(languageId) || !uri.path.endsWith(SCHEMA_FILE_SUFFIX)) return diagnostics;
  const validated = vscode.workspace.getConfiguration('json', { uri, languageId }).get<boolean>('validate.enable', true);
  if (!validated) return diagnostics;
  return diagnostics.filter((d) => (typeof d.code === 'object' ? d.code.value : d.code) !== SCHEMA_RULE);
}

async function startClient(): Promise<void> {
  if (client) return;
  if (starting) return starting;
  starting = (async () => {
    const server = await resolveServer();
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
      middleware: {
        handleDiagnostics: (uri, diagnostics, next) => next(uri, withoutSchemaDuplicates(uri, diagnostics)),
      },
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
