// Sentences more than one answer says, written once: the search's responses, readDoc's, and the MCP tools' and the
// CLI's own, which take them from here.

/**
 * How to add documentation, for an answer that has none to give.
 *
 * @example
 * `No libraries installed. ${ADD_DOCS_HINT}`
 */
export const ADD_DOCS_HINT = 'Add one with: docs add <folder> --name <name> --version <version>';

/**
 * The message of an answer when no documentation package is installed at all (status `no-packages`).
 *
 * @example
 * if (response.status === 'no-packages') console.log(NO_PACKAGES_MESSAGE === response.message); // true
 */
export const NO_PACKAGES_MESSAGE: string = `No documentation packages are installed. ${ADD_DOCS_HINT}`;
