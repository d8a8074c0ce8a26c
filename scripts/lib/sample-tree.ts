// A small brXM-like distribution tree, the kind a Maven "dist" profile produces.
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zipArchive, type ZipFiles } from './zip-writer.js'

/** The site webapp's own files: what its build packs into webapps/site.war (a zip, as brXM's is). */
const SITE_WEBAPP: ZipFiles = {
  'META-INF/': '',
  'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\r\nCreated-By: brcloud-deploy sample tree\r\n\r\n',
  'WEB-INF/': '',
  'WEB-INF/web.xml': '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="5.0"/>\n',
  'index.html': '<html>site</html>\n'
}

/**
 * Makes the tree under `root`; `bigFileBytes` sizes cms.war and a shared jar (random bytes). `siteWebapp`
 * adds files to the site webapp, as a build writes them into site/webapp/src/main/webapp (e.g. version.txt).
 */
export function makeDistributionTree(root = mkdtempSync(join(tmpdir(), 'brcd-tree-')), bigFileBytes = 200_000, siteWebapp: ZipFiles = {}): string {
  const files: Record<string, string | Buffer> = {
    'bin/setenv.sh': '#!/bin/sh\nCATALINA_OPTS="-Xmx2g"\n',
    'conf/context.xml': '<Context/>\n',
    'conf/log4j2.xml': '<Configuration/>\n',
    'shared/lib/hippo-shared.jar': randomBytes(bigFileBytes),
    'common/lib/common.jar': randomBytes(1000),
    'webapps/cms.war': randomBytes(bigFileBytes),
    'webapps/site.war': zipArchive({ ...SITE_WEBAPP, ...siteWebapp }),
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
