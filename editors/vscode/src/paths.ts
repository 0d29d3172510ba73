// Setting values that name files, as the user wrote them (no vscode import: unit-tested with node).
import * as path from 'node:path';

/**
 * `${workspaceFolder}`, `${workspaceFolder:name}`, `${userHome}` and a leading `~` expanded;
 * a relative result is taken relative to the first workspace folder. Undefined when it names a
 * workspace folder that is not open.
 */
export function expandPath(
  raw: string,
  folders: readonly { name: string; fsPath: string }[],
  home: string,
): string | undefined {
  let missing = false;
  let value = raw.replace(/\$\{(workspaceFolder|userHome)(?::([^}]*))?\}/g, (_all, name: string, folder?: string) => {
    if (name === 'userHome') return home;
    const found = folder === undefined ? folders[0] : folders.find((f) => f.name === folder);
    if (!found) missing = true;
    return found?.fsPath ?? '';
  });
  if (missing) return undefined;
  if (value === '~' || value.startsWith('~/') || value.startsWith('~\\')) value = path.join(home, value.slice(1));
  if (!path.isAbsolute(value)) {
    if (!folders[0]) return undefined;
    value = path.join(folders[0].fsPath, value);
  }
  return path.normalize(value);
}

