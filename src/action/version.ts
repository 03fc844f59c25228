/** This action's version, as in package.json (a test keeps the two equal; the release checks the tag against package.json). */
export const ACTION_VERSION = '1.0.0'
