/** Types of ports.js: free loopback ports reserved with a lock file so that two test runs cannot collide. */
export declare function freePort(): Promise<number>;
export declare const LOCK_DIR: string;
