// Vitest runs the *.spec.mjs files here; the *.test.mjs files are node:test's, run by `spout test`.
import { defineConfig } from "vitest/config";

export default defineConfig({ test: { include: ["**/*.spec.mjs"] } });
