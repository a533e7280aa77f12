import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPythonDependencies } from './dependencies.js';
import { readPythonManifests } from './manifests.js';
import { isDevFile, normaliseName, requirementName } from './requirements.js';
import { layOutVenv, writeFiles } from './venv-layout.test-kit.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-python-manifests-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('requirement names', () => {
  it.each([
    ['requests', 'requests'],
    ['SQLAlchemy[asyncio]==2.0.36', 'sqlalchemy'],
    ['zope.interface>=5', 'zope-interface'],
    ['Foo__Bar ; python_version < "3.10"', 'foo-bar'],
    ['pkg @ https://example.org/pkg-1.0.tar.gz', 'pkg'],
    ['typing_extensions~=4.0', 'typing-extensions'],
    ['./vendor/lib', undefined],
    ['https://example.org/x.whl', undefined],
    ['', undefined],
    ['-e .', undefined],
  ])('%j names %j', (requirement, name) => {
    expect(requirementName(requirement)).toBe(name);
  });

  it('normalises as PEP 503 says', () => {
    expect(normaliseName('Jinja2')).toBe('jinja2');
    expect(normaliseName('python_dateutil')).toBe('python-dateutil');
    expect(normaliseName('A-._B')).toBe('a-b');
  });

  it.each([
    ['requirements.txt', false],
    ['requirements-dev.txt', true],
    ['dev-requirements.txt', true],
    ['requirements/test.txt', true],
    ['requirements-prod.txt', false],
  ])('%s is a development file: %s', (file, dev) => {
    expect(isDevFile(file)).toBe(dev);
  });
});

describe('Python manifests', () => {
  it('reads pyproject.toml: project dependencies, extras, PEP 735 groups, uv and Poetry', async () => {
    const project = path.join(dir, 'pyproject');
    await writeFiles(project, {
      'pyproject.toml': [
        '[project]',
        'name = "app"',
        'dependencies = ["requests>=2", "Pydantic[email]==2.10.6"]',
        '[project.optional-dependencies]',
        'yaml = ["PyYAML"]',
        '[dependency-groups]',
        'test = ["pytest>=8", {include-group = "lint"}]',
        'lint = ["ruff"]',
        '[tool.uv]',
        'dev-dependencies = ["mypy"]',
        '[tool.poetry.dependencies]',
        'python = "^3.11"',
        'Click = "^8.1"',
        '[tool.poetry.group.docs.dependencies]',
        'mkdocs = "*"',
      ].join('\n'),
    });
    const { requirements, files, problems } = await readPythonManifests(project);
    expect(files).toEqual(['pyproject.toml']);
    expect(problems).toEqual([]);
    expect(requirements.map((r) => [r.name, r.dev])).toEqual([
      ['requests', false],
      ['pydantic', false],
      ['pyyaml', false],
      ['pytest', true],
      ['ruff', true],
      ['mypy', true],
      ['click', false],
      ['mkdocs', true],
    ]);
  });

  it('reads requirements files with their includes, comments, continuations and options, and Pipfile', async () => {
    const project = path.join(dir, 'requirements');
    await writeFiles(project, {
      'requirements.txt':
        '# pinned\n--index-url https://example.org/simple\nrequests==2.32.3  # HTTP\nhttpx \\\n  ==0.28.1\n-r requirements/base.txt\n-c constraints.txt\n-e git+https://example.org/x.git#egg=Local_Pkg\n./wheels/thing.whl\n',
      'requirements/base.txt': 'attrs==24.3.0\n-r ../requirements.txt\n',
      'requirements-dev.txt': 'pytest\n',
      'requirements-evil.txt': '-r ../../outside.txt\n',
      Pipfile: '[packages]\nJinja2 = "*"\n[dev-packages]\nblack = "*"\n',
    });
    const { requirements, files, problems } = await readPythonManifests(project);
    expect(files).toEqual(['requirements-dev.txt', 'requirements-evil.txt', 'requirements.txt', 'Pipfile']);
    expect(requirements.map((r) => `${r.name}${r.dev ? ' (dev)' : ''} from ${r.file}`)).toEqual([
      'pytest (dev) from requirements-dev.txt',
      'requests from requirements.txt',
      'httpx from requirements.txt',
      `attrs from ${path.join('requirements', 'base.txt')}`,
      'local-pkg from requirements.txt',
      'jinja2 from Pipfile',
      'black (dev) from Pipfile',
    ]);
    // An include that leads out of the project is not read, and says so.
    expect(problems).toEqual([expect.stringContaining('outside the project')]);
  });

  it('says which manifest does not parse, and still reads the others', async () => {
    const project = path.join(dir, 'broken');
    await writeFiles(project, { 'pyproject.toml': '[project\n', 'requirements.txt': 'click\n' });
    const { requirements, problems } = await readPythonManifests(project);
    expect(requirements.map((r) => r.name)).toEqual(['click']);
    expect(problems).toEqual([expect.stringMatching(/^pyproject\.toml: /)]);
  });
});

describe('findPythonDependencies', () => {
  it('lists the declared distributions at their installed versions, stubs joined to their library', async () => {
    const project = path.join(dir, 'project');
    await writeFiles(project, {
      'requirements.txt': 'SQLAlchemy==2.0.36\nPyYAML\nmissing-lib\n',
      'requirements-dev.txt': 'pytest\ntypes-PyYAML\n',
    });
    await layOutVenv(project, [
      { name: 'SQLAlchemy', version: '2.0.36', summary: 'Database Abstraction Library' },
      { name: 'greenlet', version: '3.1.1' },
      { name: 'PyYAML', version: '6.0.2' },
      { name: 'types-PyYAML', version: '6.0.12.20241230' },
      { name: 'pytest', version: '8.3.4' },
      { name: 'pip', version: '24.0' },
    ]);
    const plain = await findPythonDependencies(project, { dev: false, all: false, env: {} });
    expect(plain?.installed.map((d) => [d.name, d.version, d.dev, d.types?.name])).toEqual([
      ['pyyaml', '6.0.2', false, 'types-pyyaml'],
      ['sqlalchemy', '2.0.36', false, undefined],
    ]);
    expect(plain?.installed[1]?.description).toBe('Database Abstraction Library');
    expect(plain?.skipped).toEqual([{ name: 'missing-lib', reason: 'not installed in .venv' }]);

    const dev = await findPythonDependencies(project, { dev: true, all: false, env: {} });
    expect(dev?.installed.map((d) => [d.name, d.dev])).toEqual([
      ['pytest', true],
      ['pyyaml', false],
      ['sqlalchemy', false],
    ]);
    expect(dev?.skipped).toContainEqual({
      name: 'types-pyyaml',
      version: '6.0.12.20241230',
      reason: 'its stubs document pyyaml@6.0.2',
    });

    const all = await findPythonDependencies(project, { dev: false, all: true, env: {} });
    expect(all?.installed.map((d) => d.name)).toEqual(['greenlet', 'pytest', 'pyyaml', 'sqlalchemy']);
  });

  it('finds the active virtualenv from VIRTUAL_ENV, and is undefined for a folder that is no Python project', async () => {
    const project = path.join(dir, 'active');
    await writeFiles(project, { 'pyproject.toml': '[project]\ndependencies = ["click"]\n' });
    const elsewhere = path.join(dir, 'elsewhere');
    await layOutVenv(elsewhere, [{ name: 'click', version: '8.1.8' }], 'env-somewhere');
    const found = await findPythonDependencies(project, {
      dev: false,
      all: false,
      env: { VIRTUAL_ENV: path.join(elsewhere, 'env-somewhere') },
    });
    expect(found?.installed.map((d) => `${d.name}@${d.version}`)).toEqual(['click@8.1.8']);
    const none = await findPythonDependencies(project, { dev: false, all: false, env: {} });
    expect(none?.skipped).toEqual([
      { name: 'click', reason: 'not installed (no virtualenv: create .venv and install the requirements into it)' },
    ]);
    await writeFiles(path.join(dir, 'not-python'), { 'README.md': '# x\n' });
    expect(
      await findPythonDependencies(path.join(dir, 'not-python'), { dev: false, all: false, env: {} }),
    ).toBeUndefined();
  });
});

describe('a virtualenv named by the user', () => {
  it('is the one read, and one that is not there is an error naming it', async () => {
    const project = path.join(dir, 'named');
    await writeFiles(project, { 'requirements.txt': 'click\n' });
    await layOutVenv(project, [{ name: 'click', version: '8.0.0' }]);
    await layOutVenv(project, [{ name: 'click', version: '8.1.8' }], 'envs/py311');
    const named = await findPythonDependencies(project, { dev: false, all: false, env: {}, venv: 'envs/py311' });
    expect(named?.installed.map((d) => `${d.name}@${d.version}`)).toEqual(['click@8.1.8']);
    await expect(findPythonDependencies(project, { dev: false, all: false, env: {}, venv: 'nope' })).rejects.toThrow(
      'no Python virtualenv (pyvenv.cfg and site-packages) in nope',
    );
  });
});

describe('a uv workspace', () => {
  it("reads each member's pyproject.toml, lists who uses each dependency, and skips the members themselves", async () => {
    const project = path.join(dir, 'uv-workspace');
    await writeFiles(project, {
      'pyproject.toml': [
        '[project]',
        'name = "root"',
        'dependencies = ["httpx", "app-core"]',
        '[tool.uv.workspace]',
        'members = ["packages/*"]',
        'exclude = ["packages/skipped"]',
      ].join('\n'),
      'packages/core/pyproject.toml': '[project]\nname = "App_Core"\ndependencies = ["pydantic>=2", "httpx"]\n',
      'packages/cli/pyproject.toml': '[project]\nname = "app-cli"\ndependencies = ["click", "app-core"]\n',
      'packages/skipped/pyproject.toml': '[project]\nname = "skipped"\ndependencies = ["rich"]\n',
      'packages/not-a-member/README.md': '# no pyproject\n',
    });
    await layOutVenv(project, [
      { name: 'httpx', version: '0.28.1' },
      { name: 'pydantic', version: '2.10.6' },
      { name: 'click', version: '8.1.8' },
      { name: 'rich', version: '13.9.4' },
      { name: 'app_core', version: '0.1.0' },
    ]);
    const found = await findPythonDependencies(project, { dev: false, all: false, env: {} });
    expect(found?.installed.map((d) => [d.name, d.usedBy])).toEqual([
      ['click', ['packages/cli']],
      ['httpx', ['.', 'packages/core']],
      ['pydantic', ['packages/core']],
    ]);
    expect(found?.skipped).toEqual([
      { name: 'app-core', reason: 'linked from the workspace, not an installed release' },
    ]);
  });
});
