// The Python half of the API reader: run by the project's interpreter with `-I -S` (no site-packages, no .pth
// files, no user site, no environment variables), it parses the files it is given with `ast` and prints what each
// defines and imports as JSON. It never imports the files it reads. Kept as a string so the bundled CLI carries it.
export const INSPECT_SCRIPT: string = String.raw`
# Reads Python source files with ast and prints what each defines and imports, as JSON. It parses; it never imports
# or runs the files it reads. Input on stdin: {"files": [{"module", "path", "package"}], "maxFileBytes"}.
import ast, inspect, json, sys

def text(node, limit=200):
    try:
        value = ast.unparse(node)
    except Exception:
        return '...'
    return value if len(value) <= limit else value[: limit - 3] + '...'

def decorator_name(node):
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return ''

def deprecation(decorators):
    for node in decorators:
        if decorator_name(node) == 'deprecated':
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                return node.args[0].value
            return ''
    return None

def function(node, owner=None):
    decorators = [decorator_name(d) for d in node.decorator_list]
    prefix = 'async def ' if isinstance(node, ast.AsyncFunctionDef) else 'def '
    returns = ' -> ' + text(node.returns) if node.returns is not None else ''
    shown = ''.join('@' + text(d, 120) + '\n' for d in node.decorator_list if decorator_name(d) in ('classmethod', 'staticmethod'))
    kind = 'function' if owner is None else 'method'
    if 'property' in decorators or 'cached_property' in decorators:
        kind = 'property'
        signature = node.name + (': ' + text(node.returns) if node.returns is not None else '')
    else:
        signature = shown + prefix + node.name + '(' + text(node.args, 2000) + ')' + returns
    return {
        'kind': kind, 'name': node.name, 'line': node.lineno, 'signature': signature,
        'doc': ast.get_docstring(node) or '', 'deprecated': deprecation(node.decorator_list),
        'overload': 'overload' in decorators, 'setter': any(isinstance(d, ast.Attribute) and d.attr in ('setter', 'deleter') for d in node.decorator_list),
    }

def assignment(node, docnode):
    if isinstance(node, ast.AnnAssign):
        if not isinstance(node.target, ast.Name):
            return None
        name = node.target.id
        signature = name + ': ' + text(node.annotation) + (' = ' + text(node.value, 120) if node.value is not None else '')
    elif isinstance(node, ast.Assign):
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return None
        name = node.targets[0].id
        signature = name + ' = ' + text(node.value, 120)
    elif hasattr(ast, 'TypeAlias') and isinstance(node, ast.TypeAlias):
        name = node.name.id
        signature = 'type ' + name + ' = ' + text(node.value, 200)
    else:
        return None
    doc = ''
    if isinstance(docnode, ast.Expr) and isinstance(docnode.value, ast.Constant) and isinstance(docnode.value.value, str):
        doc = inspect.cleandoc(docnode.value.value)
    found = {'kind': 'variable', 'name': name, 'line': node.lineno, 'signature': signature, 'doc': doc, 'deprecated': None}
    # ValidationError = pydantic_core.ValidationError: another name for what a module it imports defines.
    value = getattr(node, 'value', None)
    if isinstance(node, ast.Assign) and isinstance(value, (ast.Name, ast.Attribute)):
        dotted = text(value)
        if all(part.isidentifier() for part in dotted.split('.')):
            found['alias'] = dotted
    return found

def class_def(node):
    members = []
    body = node.body
    for index, child in enumerate(body):
        following = body[index + 1] if index + 1 < len(body) else None
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if child.name.startswith('_') and child.name not in ('__init__', '__new__', '__call__'):
                continue
            members.append(function(child, node.name))
        elif isinstance(child, (ast.Assign, ast.AnnAssign)):
            found = assignment(child, following)
            if found and not found['name'].startswith('_'):
                found['kind'] = 'field' if isinstance(child, ast.AnnAssign) else 'attribute'
                members.append(found)
    bases = [text(b, 120) for b in node.bases] + [text(k, 120) for k in node.keywords]
    return {
        'kind': 'class', 'name': node.name, 'line': node.lineno,
        'signature': 'class ' + node.name + ('(' + ', '.join(bases) + ')' if bases else ''),
        'decorators': [text(d, 120) for d in node.decorator_list],
        'doc': ast.get_docstring(node) or '', 'deprecated': deprecation(node.decorator_list), 'members': members,
    }

def absolute(module, is_package, level, target):
    if level == 0:
        return target or ''
    parts = module.split('.')
    base = parts if is_package else parts[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return '.'.join(base + ([target] if target else []))

def literal_names(node):
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return literal_names(node.left) + literal_names(node.right)
    return []

STDLIB = {}

def is_stdlib(name):
    top = name.split('.')[0]
    if top not in STDLIB:
        names = getattr(sys, 'stdlib_module_names', None)
        if names is not None:
            STDLIB[top] = top in names or top in sys.builtin_module_names
        else:
            # Before 3.10: run isolated and without site-packages, what the interpreter finds is its standard library.
            # Finding a top-level module's spec reads the file system; it imports nothing.
            try:
                import importlib.util
                STDLIB[top] = top != '' and importlib.util.find_spec(top) is not None
            except (ImportError, ValueError):
                STDLIB[top] = False
    return STDLIB[top]

def module_info(entry, source):
    tree = ast.parse(source, filename=entry['path'])
    module, is_package = entry['module'], entry['package']
    info = {'module': module, 'path': entry['path'], 'doc': ast.get_docstring(tree) or '', 'all': None, 'imports': [], 'defs': []}
    seen = set()
    # An import under an if or a try (TYPE_CHECKING, an optional dependency) is not one the module needs to load.
    def visit(body, conditional=False):
        for index, node in enumerate(body):
            following = body[index + 1] if index + 1 < len(body) else None
            if isinstance(node, ast.If) or isinstance(node, ast.Try) or (hasattr(ast, 'TryStar') and isinstance(node, ast.TryStar)):
                visit(node.body, True)
                for handler in getattr(node, 'handlers', []):
                    visit(handler.body, True)
                visit(node.orelse, True)
                visit(getattr(node, 'finalbody', []), True)
            elif isinstance(node, ast.ImportFrom):
                source_module = absolute(module, is_package, node.level, node.module)
                for alias in node.names:
                    info['imports'].append({'local': alias.asname or alias.name, 'module': source_module, 'name': alias.name, 'conditional': conditional, 'stdlib': node.level == 0 and is_stdlib(source_module)})
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    info['imports'].append({'local': alias.asname or alias.name.split('.')[0], 'module': alias.name if alias.asname else alias.name.split('.')[0], 'name': None, 'conditional': conditional, 'stdlib': is_stdlib(alias.name)})
            elif isinstance(node, ast.ClassDef):
                if node.name not in seen:
                    seen.add(node.name)
                    info['defs'].append(class_def(node))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found = function(node)
                if found['overload']:
                    info['defs'].append(found)
                elif node.name not in seen:
                    seen.add(node.name)
                    info['defs'].append(found)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else getattr(node, 'target', None)
                if isinstance(target, ast.Name) and target.id == '__all__' and node.value is not None:
                    names = literal_names(node.value)
                    info['all'] = (info['all'] or []) + names if isinstance(node, ast.AugAssign) else names
                    continue
                found = None if isinstance(node, ast.AugAssign) else assignment(node, following)
                if found and found['name'] not in seen and not found['name'].startswith('__'):
                    seen.add(found['name'])
                    info['defs'].append(found)
            elif hasattr(ast, 'TypeAlias') and isinstance(node, ast.TypeAlias):
                found = assignment(node, following)
                if found and found['name'] not in seen:
                    seen.add(found['name'])
                    info['defs'].append(found)
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                call = node.value
                if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id == '__all__' and call.func.attr == 'extend' and call.args:
                    info['all'] = (info['all'] or []) + literal_names(call.args[0])
    visit(tree.body)
    return info

def main():
    request = json.load(sys.stdin)
    limit = request.get('maxFileBytes', 2_000_000)
    out = []
    for entry in request['files']:
        try:
            with open(entry['path'], 'rb') as handle:
                data = handle.read(limit + 1)
            if len(data) > limit:
                out.append({'module': entry['module'], 'path': entry['path'], 'error': 'larger than %d bytes' % limit})
                continue
            out.append(module_info(entry, data))
        except (SyntaxError, ValueError, RecursionError, OSError) as error:
            out.append({'module': entry['module'], 'path': entry['path'], 'error': type(error).__name__ + ': ' + str(error)[:200]})
    sys.stdout.write(json.dumps({'modules': out}))

main()
`;
