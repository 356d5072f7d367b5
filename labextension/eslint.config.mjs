// ESLint flat config: typescript-eslint's type-checked rules on src/; formatting is Prettier's job.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['lib/', 'node_modules/', '.yarn/'] },
  {
    files: ['src/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname }
    },
    rules: {
      '@typescript-eslint/naming-convention': [
        'error',
        { selector: 'interface', format: ['PascalCase'], prefix: ['I'] },
        { selector: 'memberLike', modifiers: ['private'], format: ['camelCase'], leadingUnderscore: 'require' }
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/explicit-function-return-type': ['error', { allowExpressions: true }],
      // Lumino's `signal.connect(slot, thisArg)` binds the method it is given.
      '@typescript-eslint/unbound-method': 'off',
      eqeqeq: 'error',
      curly: 'error'
    }
  },
  { files: ['**/*.js', '**/*.mjs'], extends: [js.configs.recommended] },
  // Node scripts (the widgets' bundler).
  { files: ['*.mjs'], languageOptions: { globals: { console: 'readonly', process: 'readonly' } } },
  prettier
);
