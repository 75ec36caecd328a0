/// <reference types="vite/client" />

/** The id of this build; `builds/latest.json` names the newest one (see vite.config.ts). */
declare const __BUILD_ID__: string;
