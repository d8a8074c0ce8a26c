// A small brXM-like distribution tree, the kind a Maven "dist" profile produces.
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function makeDistributionTree(root = mkdtempSync(join(tmpdir(), 'brcd-tree-')), bigFileBytes = 200_000): string {
  const files: Record<string, string | Buffer> = {
    'bin/setenv.sh': '#!/bin/sh\nCATALINA_OPTS="-Xmx2g"\n',
    'conf/context.xml': '<Context/>\n',
    'conf/log4j2.xml': '<Configuration/>\n',
    'shared/lib/hippo-shared.jar': randomBytes(bigFileBytes),
    'common/lib/common.jar': randomBytes(1000),
    'webapps/cms.war': randomBytes(bigFileBytes),
    'webapps/site.war': Buffer.alloc(5000, 'site'),
    'webapps/ROOT/index.html': '<html>ok</html>\n'
  }
  for (const [name, content] of Object.entries(files)) {
    const path = join(root, name)
    mkdirSync(join(path, '..'), { recursive: true })
    writeFileSync(path, content)
  }
  chmodSync(join(root, 'bin/setenv.sh'), 0o755)
  mkdirSync(join(root, 'logs'))
  return root
}
