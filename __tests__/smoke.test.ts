test('toolchain', () => { expect(1).toBe(1) })
