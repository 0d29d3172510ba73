// A stand-in for ms-python.python in the e2e test (the real one cannot be installed offline):
// the API shape of @vscode/python-extension that the FlowDrop extension calls, answering with
// the interpreter in interpreter.json.
const path = require('node:path');
const vscode = require('vscode');

exports.activate = function activate() {
  const interpreter = require(path.join(__dirname, 'interpreter.json')).path;
  const changed = new vscode.EventEmitter();
  const environmentPath = { id: interpreter, path: interpreter };
  return {
    ready: Promise.resolve(),
    environments: {
      getActiveEnvironmentPath: () => environmentPath,
      resolveEnvironment: async () => ({ ...environmentPath, executable: { uri: vscode.Uri.file(interpreter) } }),
      onDidChangeActiveEnvironmentPath: changed.event,
    },
    settings: { getExecutionDetails: () => ({ execCommand: [interpreter] }) },
  };
};
exports.deactivate = function deactivate() {};
