/** Types of debian.js: Debian packages the tests need, installed with apt-get when the run may (root, apt-get). */
export declare function ensureDebianPackage(command: string, pkg: string, why: string): string;
export declare function locate(command: string): string | undefined;
