var __webpack_exports__ = {};

;// CONCATENATED MODULE: ./src/main.ts
async function run() { }

;// CONCATENATED MODULE: ./src/index.ts

void run();

