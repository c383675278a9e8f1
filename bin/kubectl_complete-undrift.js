#!/usr/bin/env -S node --max-semi-space-size=4
// kubectl's completion of the plugin: since kubectl 1.26, `kubectl undrift <TAB>`
// runs `kubectl_complete-undrift WORD...` from the PATH and reads cobra's
// `__complete` answer. This is `undrift __complete WORD...`, through the same
// start-up as undrift itself (dist/ when installed, the pinned Node in a checkout).
// The hand-over to the pinned Node re-runs this file with the word already in place.
if (process.argv[2] !== "__complete") process.argv.splice(2, 0, "__complete");
await import("./undrift.js");
