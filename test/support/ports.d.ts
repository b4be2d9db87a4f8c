/** Types of ports.js: free loopback ports reserved with a lock file so that two test runs cannot collide. */
export declare function freePort(): Promise<number>;
export declare const LOCK_DIR: string;
/** Reserves one given port for this process (its lock file); false when another live process holds it. */
export declare function reserve(port: number): boolean;
