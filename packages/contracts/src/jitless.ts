// A browser entry imports this first: zod probes `new Function` when each object schema is built,
// and under the web app's CSP (no 'unsafe-eval') every probe logs a violation. Configured here,
// before any module that builds a schema is evaluated, none probes.
import { disableSchemaCompilation } from './runtime.ts';

disableSchemaCompilation();
