// src/port.js as the simulation gives it: `brcloud status` installs its own port (its face's, with usePort) in the
// status report's process, apart from the runs'. Each engine call goes to the port of the process that makes it: the
// status report's calls (the 'status' caller of ./transport.ts) to the one its command installed, every run's to the one
// its process installed (./process.ts routes both), or the one the test file installed (./mocks.ts: the runner's). A read
// of the report through the engine alone (no command) installs none: its calls go to the test file's port, which keeps
// them apart (./mocks.ts, statusShown).
export { resetStatusPort, routedPort as statusRoutedPort } from './process.js'
