import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstalledDependency } from '../../dependencies.js';
import { stageDependencyDocs } from '../../dependency-docs.js';
import { findPythonDependencies } from '../dependencies.js';
import { layOutVenv, writeFiles } from '../venv-layout.test-kit.js';
import { docstringMarkdown } from './docstring.js';
import { pythonApi } from './index.js';

// Distributions laid out as pip installs them, one per layout the API reader must follow. Parsed by the machine's
// real Python (`python3`), as in a project.
let dir: string;
let project: string;
let site: string;
const LIMITS = { maxFiles: 1000, maxBytes: 16 * 1024 * 1024, timeoutMs: 30_000 };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-python-api-'));
  project = path.join(dir, 'project');
  await writeFiles(project, {
    'requirements.txt':
      'pydantic-like\nrequests-like\nplugin-lib\nexample-lib\ncompiled\nmodel-lib\nyaml-like\nnamespaced-thing\nbroken\n',
  });
  site = await layOutVenv(project, [
    {
      // __all__ and a re-export-heavy __init__ (imports under TYPE_CHECKING, a star import), overloads, deprecation.
      name: 'pydantic-like',
      version: '2.10.6',
      description: '# Pydantic-like\n\nData validation.\n',
      files: {
        'pydlike/__init__.py': [
          '"""Data validation."""',
          'import typing',
          'if typing.TYPE_CHECKING:',
          '    from .functional_validators import field_validator',
          '    from .main import BaseModel',
          '    from .errors import *',
          "__all__ = ('field_validator', 'BaseModel', 'PydanticUserError')",
          'def __getattr__(name):',
          '    raise AttributeError(name)',
        ].join('\n'),
        'pydlike/main.py': [
          'import typing_extensions',
          'class BaseModel:',
          '    """Base class for models.',
          '',
          '    Attributes:',
          '        model_config: Configuration for the model.',
          '    """',
          '    model_config: dict = {}',
          '    """Configuration for the model."""',
          '    def __init__(self, /, **data: object) -> None:',
          '        """Create a model."""',
          '    @classmethod',
          '    def model_validate(cls, obj: object, *, strict: bool | None = None) -> "BaseModel":',
          '        """Validate an object.',
          '',
          '        Args:',
          '            obj (object): The object to validate.',
          '            strict: Whether to be strict.',
          '',
          '        Returns:',
          '            The validated model.',
          '        """',
          '    @property',
          '    def model_fields_set(self) -> set[str]:',
          '        """The fields set."""',
          "    @typing_extensions.deprecated('Use `model_dump` instead.')",
          '    def dict(self) -> dict:',
          '        """Old."""',
          '    def _private(self): ...',
        ].join('\n'),
        'pydlike/functional_validators.py': [
          'from typing import overload',
          '@overload',
          'def field_validator(field: str, *, mode: str) -> int: ...',
          '@overload',
          'def field_validator(field: str) -> int: ...',
          "def field_validator(field: str, *fields: str, mode: str = 'after') -> int:",
          '    """Decorate methods to validate fields.',
          '',
          '    >>> field_validator("a")',
          '    1',
          '    """',
        ].join('\n'),
        'pydlike/errors.py': [
          "__all__ = ['PydanticUserError']",
          'class PydanticUserError(Exception):',
          '    """An error from wrong usage."""',
          '    def __new__(cls, message: str, *, code: str) -> "PydanticUserError": ...',
        ].join('\n'),
        'pydlike/_internal/__init__.py': '',
        'pydlike/_internal/_helpers.py': 'def helper():\n    """Private."""\n',
        'pydlike/tests/test_x.py': 'def test_x(): ...\n',
      },
    },
    {
      // No __all__: the names defined, and the package's own names imported in __init__.
      name: 'requests-like',
      version: '2.32.3',
      files: {
        'reqlike/__init__.py': 'import os\nfrom .models import Response\nfrom . import models\n',
        'reqlike/models.py': [
          'import logging',
          'log = logging.getLogger(__name__)',
          'DEFAULT_REDIRECT_LIMIT = 30',
          '"""The most redirects followed."""',
          'class Response:',
          '    """The server response.',
          '',
          '    :param status: the status code',
          '    :type status: int',
          '    """',
          '    def raise_for_status(self):',
          '        """Raises :class:`HTTPError`, if one occurred."""',
          'def _private(): ...',
        ].join('\n'),
      },
    },
    {
      // Modules beside the package's own: a plugin for a tool only an extra requires, one needing a requirement (under
      // another import name), one a requirement's requirement, an optional import, and a test suite it ships.
      name: 'plugin-lib',
      version: '1.0.0',
      requires: ['Markdown-Like>=1', 'mypylike>=1.0; extra == "mypy"'],
      files: {
        'pluglib/__init__.py': 'from .core import run\n',
        'pluglib/core.py': 'import json\nimport mdlike\nfrom . import render\ndef run():\n    """Run it."""\n',
        'pluglib/render.py': 'import os.path\nfrom mdlike.parser import parse\ndef render():\n    """Render it."""\n',
        'pluglib/deep.py': 'import deeplib\ndef deep():\n    """Go deep."""\n',
        'pluglib/optional.py': [
          'try:',
          '    import tornadoish',
          'except ImportError:',
          '    tornadoish = None',
          'def wrap():',
          '    """Wrap it."""',
        ].join('\n'),
        'pluglib/mypy.py':
          'from mypylike.plugin import Plugin\ndef plugin(version):\n    """The type checker entry point."""\n',
        // A suite shipped for other packages to run, its test cases re-exported (as sqlalchemy.testing.suite does).
        'pluglib/suite/__init__.py': 'from .test_things import *\nfrom .things_test import test_b\n',
        'pluglib/suite/test_things.py': 'class ThingTest:\n    def test_a(self):\n        """A test."""\n',
        'pluglib/suite/things_test.py': 'def test_b():\n    """Another test."""\n',
      },
    },
    { name: 'markdown-like', version: '1.0.0', requires: ['deep-lib'], files: { 'mdlike/__init__.py': '' } },
    { name: 'deep-lib', version: '1.0.0', files: { 'deeplib.py': '' } },
    {
      // A markdown README whose paragraphs introduce Python examples: a console session, a script, one calling many.
      name: 'example-lib',
      version: '1.0.0',
      description: [
        '# Example lib',
        '',
        'Make the output of the REPL pretty, in colour.',
        '',
        '```pycon',
        '>>> from exlib import pretty',
        '>>> pretty.install()',
        '```',
        '',
        'Print a report of any object:',
        '',
        '```python',
        'from exlib import inspect',
        'inspect(obj)',
        '```',
        '',
        'Everything at once:',
        '',
        '```python',
        'one(); two(); three(); four()',
        '```',
        '',
      ].join('\n'),
      files: {
        'exlib/__init__.py': 'from .report import inspect\n',
        'exlib/report.py': 'def inspect(obj):\n    """Report on an object."""\n',
        'exlib/pretty.py': 'def install():\n    """Install the pretty printer."""\n',
        'exlib/traceback.py': 'def install():\n    """Install the traceback handler."""\n',
        'exlib/many.py': ['one', 'two', 'three', 'four'].map((n) => `def ${n}():\n    """${n}."""\n`).join(''),
      },
    },
    {
      // A compiled core: a .so and its stub, and a pure-Python module beside them.
      name: 'compiled',
      version: '1.0.0',
      files: {
        'compiled/__init__.py': 'from ._core import Validator\n__all__ = ["Validator"]\n',
        'compiled/_core.cpython-311-x86_64-linux-gnu.so': '\u007fELF',
        'compiled/_core.pyi': [
          'class Validator:',
          '    """Validates input against a schema."""',
          '    def validate_python(self, input: object) -> object:',
          '        """Validate a Python object.',
          '',
          '        Parameters',
          '        ----------',
          '        input : object',
          '            The object.',
          '        """',
        ].join('\n'),
        'compiled/py.typed': '',
      },
    },
    {
      // Re-exports from another distribution's compiled core, by import and by an alias assignment.
      name: 'model-lib',
      version: '1.0.0',
      files: {
        'modellib/__init__.py': [
          'import corelib',
          'from corelib.schema import Info',
          'ValidationError = corelib.ValidationError',
          "__all__ = ['ValidationError', 'Info']",
        ].join('\n'),
      },
    },
    {
      name: 'core-lib',
      version: '2.0.0',
      files: {
        'corelib/__init__.py': 'from ._core import ValidationError\n',
        'corelib/_core.cpython-311-x86_64-linux-gnu.so': '\u007fELF',
        'corelib/_core.pyi': 'class ValidationError(ValueError):\n    """Raised when validation fails."""\n',
        'corelib/schema.py': 'class Info:\n    """Argument passed to validation functions."""\n',
      },
    },
    {
      name: 'yaml-like',
      version: '6.0.2',
      files: { 'yamllike/__init__.py': 'def safe_load(stream):\n    """Parse a YAML document."""\n' },
    },
    {
      // A stub distribution for yaml-like: signatures from its .pyi, the docstring from the source.
      name: 'types-yaml-like',
      version: '6.0.12',
      files: {
        'yamllike-stubs/__init__.pyi': 'from typing import Any\ndef safe_load(stream: bytes | str) -> Any: ...\n',
      },
    },
    {
      // A namespace package (no __init__.py), as an src-layout project installs it.
      name: 'namespaced-thing',
      version: '0.1.0',
      files: { 'acme/thing/__init__.py': 'def run(x: int = 1) -> None:\n    """Run the thing."""\n' },
    },
    {
      // Python 2 syntax: not parsed, and the README is still built.
      name: 'broken',
      version: '0.1',
      description: 'Broken but documented.',
      files: { 'broken/__init__.py': 'print "hello"\n' },
    },
  ]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function staged(
  name: string,
): Promise<{ files: Record<string, string>; warnings: readonly string[]; source: string }> {
  const found = await findPythonDependencies(project, { dev: false, all: false, env: {} });
  const dependency = found?.installed.find((d) => d.name === name) as InstalledDependency;
  expect(dependency, name).toBeDefined();
  const result = await stageDependencyDocs(dependency);
  if (!result.ok) throw new Error(result.error);
  try {
    const files: Record<string, string> = {};
    const { findDocFiles } = await import('../../walk.js');
    for (const file of await findDocFiles(result.value.root))
      files[file.relativePath] = await readFile(file.absolutePath, 'utf8');
    return { files, warnings: result.value.warnings, source: result.value.source };
  } finally {
    await result.value.dispose();
  }
}

describe('Python API pages', () => {
  it('follows re-exports in __init__ (TYPE_CHECKING, star imports) and documents each object once, under its shortest path', async () => {
    const { files, warnings } = await staged('pydantic-like');
    expect(warnings).toEqual([]);
    expect(Object.keys(files).sort()).toEqual(['README.md', 'api/pydlike/BaseModel.md', 'api/pydlike/index.md']);
    const index = files['api/pydlike/index.md'] ?? '';
    expect(index).toMatch(
      /^# pydlike API\n\nData validation\.\n\n## field_validator\n\n`from pydlike import field_validator` · function · also importable as `pydlike\.functional_validators\.field_validator`/,
    );
    // Overloads together, then the implementation; the doctest as code.
    expect(index).toContain(
      "```python\n@overload\ndef field_validator(field: str, *, mode: str) -> int\n\n@overload\ndef field_validator(field: str) -> int\n\ndef field_validator(field: str, *fields: str, mode: str='after') -> int\n```",
    );
    expect(index).toContain('```python\n>>> field_validator("a")\n1\n```');
    expect(index).toContain('## PydanticUserError\n\n`from pydlike import PydanticUserError` · class');
    // A class that defines `__new__` and no `__init__` is called as its `__new__` says.
    expect(index).toContain(
      "class PydanticUserError(Exception):\n    def __new__(cls, message: str, *, code: str) -> 'PydanticUserError'\n```",
    );
    const model = files['api/pydlike/BaseModel.md'] ?? '';
    expect(model).toContain('## BaseModel\n\n`from pydlike import BaseModel` · class');
    expect(model).toContain('class BaseModel:\n    def __init__(self, /, **data: object) -> None');
    expect(model).toContain('### BaseModel.model_validate\n\nMethod of `BaseModel` · `from pydlike import BaseModel`');
    expect(model).toContain(
      '**Args:**\n\n- `obj` (object): The object to validate.\n- `strict`: Whether to be strict.',
    );
    expect(model).toContain('@classmethod\ndef model_validate(cls, obj: object, *, strict: bool | None=None)');
    expect(model).toContain('### BaseModel.model_fields_set\n\nProperty of `BaseModel`');
    // Fields are listed in their class's section, with their attribute docstring.
    expect(model).toContain('**Fields:**\n\n- `model_config: dict = {}`: Configuration for the model.');
    expect(model).not.toContain('### BaseModel.model_config');
    // The deprecation first.
    expect(model).toMatch(
      /### BaseModel\.dict\n\nMethod of `BaseModel` · `from pydlike import BaseModel`\n\nDeprecated: Use `model_dump` instead\.\n\nOld\./,
    );
    expect(Object.values(files).join('\n')).not.toMatch(/_private|helper|test_x/);
  });

  it('puts a module needing a tool the package does not require under api/other-entry-points/, and no test module, re-exported or not', async () => {
    const { files, warnings } = await staged('plugin-lib');
    expect(warnings).toEqual([]);
    expect(
      Object.keys(files)
        .filter((file) => file.startsWith('api/'))
        .sort(),
    ).toEqual([
      'api/other-entry-points/pluglib/mypy/index.md',
      'api/pluglib/deep/index.md',
      'api/pluglib/index.md',
      'api/pluglib/optional/index.md',
      'api/pluglib/render/index.md',
    ]);
    expect(files['api/other-entry-points/pluglib/mypy/index.md']).toContain('## plugin');
    // Test cases are not API where a package re-exports them either.
    expect(Object.values(files).join('\n')).not.toMatch(/ThingTest|test_b/);
  });

  it('quotes the README paragraph that introduces a Python example in the section of the API it calls', async () => {
    const { files, warnings } = await staged('example-lib');
    expect(warnings).toEqual([]);
    // `pretty.install()` names its module: the other `install` is not the one the example calls.
    expect(files['api/exlib/pretty/index.md']).toContain('In the docs: Make the output of the REPL pretty, in colour.');
    expect(files['api/exlib/traceback/index.md']).not.toContain('In the docs');
    expect(files['api/exlib/index.md']).toContain('## inspect');
    expect(files['api/exlib/index.md']).toContain('In the docs: Print a report of any object:');
    // An example calling four APIs shows how they fit together, not what any one does.
    expect(files['api/exlib/many/index.md']).not.toContain('In the docs');
  });

  it('takes what a package without __all__ defines and imports from itself, and reST fields and roles', async () => {
    const { files } = await staged('requests-like');
    // A documented module variable is API; an undocumented one (a logger) is not, without `__all__`.
    expect(Object.keys(files).sort()).toEqual(['api/reqlike/Response.md', 'api/reqlike/models/index.md']);
    expect(files['api/reqlike/models/index.md']).toContain('## DEFAULT_REDIRECT_LIMIT');
    expect(files['api/reqlike/models/index.md']).not.toContain('## log');
    const page = files['api/reqlike/Response.md'] ?? '';
    expect(page).toContain(
      '## Response\n\n`from reqlike import Response` · class · also importable as `reqlike.models.Response`',
    );
    expect(page).toContain('- `status`: the status code');
    expect(page).not.toContain(':type');
    expect(page).toContain(
      '### Response.raise_for_status\n\nMethod of `Response` · `from reqlike import Response`\n\nRaises `HTTPError`, if one occurred.',
    );
    expect(page).not.toMatch(/\bos\b/);
  });

  it('documents a compiled core through its stub, with NumPy sections', async () => {
    const { files } = await staged('compiled');
    const page = files['api/compiled/Validator.md'] ?? '';
    expect(page).toContain('### Validator.validate_python');
    expect(page).toContain('**Parameters:**\n\n- `input` (object): The object.');
  });

  it("documents what it re-exports from another distribution's compiled core, under its own import path", async () => {
    const { files } = await staged('model-lib');
    expect(Object.keys(files).sort()).toEqual(['api/modellib/index.md']);
    const page = files['api/modellib/index.md'] ?? '';
    expect(page).toContain(
      '## ValidationError\n\n`from modellib import ValidationError` · class\n\nRaised when validation fails.\n\n```python\nclass ValidationError(ValueError):\n```',
    );
    expect(page).toContain(
      '## Info\n\n`from modellib import Info` · class\n\nArgument passed to validation functions.',
    );
  });

  it('joins a types-* stub distribution: its signatures, the docstrings of the source', async () => {
    const { files, source } = await staged('yaml-like');
    expect(source).toBe('pypi:yaml-like@6.0.2, types from pypi:types-yaml-like@6.0.12');
    expect(files['api/yamllike/index.md']).toContain(
      '## safe_load\n\n`from yamllike import safe_load` · function\n\nParse a YAML document.\n\n```python\ndef safe_load(stream: bytes | str) -> Any\n```',
    );
  });

  it('reads a namespace package', async () => {
    const { files } = await staged('namespaced-thing');
    expect(files['api/acme/thing/index.md']).toContain('`from acme.thing import run` · function');
  });

  it('keeps the README when a module does not parse, and says so', async () => {
    const { files, warnings } = await staged('broken');
    expect(Object.keys(files)).toEqual(['README.md']);
    expect(warnings).toEqual([expect.stringMatching(/^1 Python file not parsed \(__init__\.py: SyntaxError/)]);
  });

  it('parses without running: a module that would write a file on import writes nothing', async () => {
    const marker = path.join(dir, 'ran');
    await writeFiles(site, {
      'sideeffect/__init__.py': `open(${JSON.stringify(marker)}, "w").write("ran")\ndef f():\n    """Doc."""\n`,
      'sideeffect-1.0.dist-info/METADATA': 'Name: sideeffect\nVersion: 1.0\n',
      'sideeffect-1.0.dist-info/RECORD': 'sideeffect/__init__.py,,\n',
      // A .pth file runs when site-packages is processed at start-up: the parser's interpreter skips it (-S).
      'evil.pth': `import os; open(${JSON.stringify(marker)}, "w").write("pth")\n`,
    });
    const api = await pythonApi({ dir: path.join(site, 'sideeffect-1.0.dist-info') }, undefined, LIMITS);
    expect(api.pages.map((p) => p.file)).toEqual(['api/sideeffect/index.md']);
    await expect(readFile(marker, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('stops at its file limit with a warning', async () => {
    const api = await pythonApi({ dir: path.join(site, 'pydantic_like-2.10.6.dist-info') }, undefined, {
      ...LIMITS,
      maxFiles: 1,
    });
    expect(api.warnings).toEqual(['the API pages stop at 1 Python files or 16777216 bytes']);
  });
});

describe('docstrings as markdown', () => {
  it.each([
    [
      'Google sections',
      'Add.\n\nArgs:\n    a (int): The first.\n        More.\n\nRaises:\n    ValueError: When bad.',
      'Add.\n\n**Args:**\n\n- `a` (int): The first. More.\n\n**Raises:**\n\n- `ValueError`: When bad.',
    ],
    [
      'reST directives',
      'Do.\n\n.. deprecated:: 2.0\n   Use other.\n\n.. code-block:: python\n\n   x = 1\n',
      'Do.\n\n**Deprecated since 2.0:** Use other.\n\n```python\nx = 1\n```',
    ],
    ['a literal block', 'Example::\n\n    run()\n', 'Example:\n\n```python\nrun()\n```'],
    ['roles and literals', 'See :func:`~pkg.mod.run` and ``x``.', 'See `run` and `x`.'],
    ['an admonition', '!!! note "Heads up"\n    Careful.', '**Heads up:**\n\nCareful.'],
    ['a heading-like line', '# not a heading', '\\# not a heading'],
  ])('%s', (_, doc, markdown) => {
    expect(docstringMarkdown(doc)).toBe(markdown);
  });
});
