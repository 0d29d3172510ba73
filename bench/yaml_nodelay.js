#!/usr/bin/env node
// Starts yaml-language-server without its per-URI validation debounce.
//
//   node bench/yaml_nodelay.js <path to node_modules/yaml-language-server> --stdio
//
// yaml-language-server 1.25.0 debounces validation in ValidationHandler.validate
// (out/server/src/languageserver/handlers/validationHandlers.js): every didOpen/didChange
// clears the URI's pending timer and calls setTimeout(validate, yamlSettings.validationDelayMs).
// validationDelayMs is not a setting: the SettingsState constructor
// (out/server/src/yamlSettings.js) assigns it 200, and server.js builds its only
// SettingsState with `new yamlSettings_1.SettingsState()`, reading the class from the
// module's exports object at that moment. So this launcher loads yamlSettings.js first
// (Node caches the module), replaces exports.SettingsState with a subclass whose
// constructor sets validationDelayMs to YLS_VALIDATION_DELAY_MS (default 0), and then
// loads the server's entry (out/server/src/server.js) exactly as bin/yaml-language-server
// does. Nothing else changes: the timer is still a setTimeout (0 ms = next turn of the
// event loop), each validation still asks the client for `[yaml]` settings first.
// It writes one line to stderr saying which delay the server's settings object got, so a
// run can prove the patch took effect.
'use strict';
const path = require('path');

const pkgDir = path.resolve(process.argv[2] || '');
process.argv.splice(2, 1); // the server looks for --stdio in argv; drop our own argument
const delay = Number(process.env.YLS_VALIDATION_DELAY_MS || '0');

const pkg = require(path.join(pkgDir, 'package.json'));
const settingsModule = require(path.join(pkgDir, 'out', 'server', 'src', 'yamlSettings.js'));
const Original = settingsModule.SettingsState;
if (typeof Original !== 'function') {
  process.stderr.write('yaml_nodelay: yamlSettings.js exports no SettingsState class\n');
  process.exit(2);
}

class NoDelaySettingsState extends Original {
  constructor(...args) {
    super(...args);
    const was = this.validationDelayMs;
    if (typeof was !== 'number') {
      process.stderr.write(`yaml_nodelay: SettingsState has no numeric validationDelayMs (${was})\n`);
      process.exit(2);
    }
    this.validationDelayMs = delay;
    process.stderr.write(
      `yaml_nodelay: yaml-language-server ${pkg.version}: validationDelayMs ${was} -> ${this.validationDelayMs}\n`
    );
  }
}
settingsModule.SettingsState = NoDelaySettingsState;

process.env.YAML_LANGUAGE_SERVER_VERSION = pkg.version;
require(path.join(pkgDir, 'out', 'server', 'src', 'server.js'));
