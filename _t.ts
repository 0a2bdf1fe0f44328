import { loadConfig } from "./server/config/load.ts";
console.log(loadConfig);
