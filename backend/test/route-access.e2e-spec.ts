import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ACCESS_RULE } from '../src/common/auth/authenticated.decorator';
import { startTestApp, TestApp } from './harness';

/** Every route declares who may call it (`@Authenticated(...)` on the handler or its controller). */
describe('route access declarations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('finds an access declaration on every route of every controller', () => {
    const routes: string[] = [];
    const undeclared: string[] = [];
    for (const module of t.app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
        if (!controller) continue;
        const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
        for (const key of Object.getOwnPropertyNames(controller.prototype)) {
          const handler = controller.prototype[key] as unknown;
          if (typeof handler !== 'function' || key === 'constructor') continue;
          const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
          if (path === undefined) continue;
          const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
          const route = `${method} /api/${[prefix, path].filter((p) => p && p !== '/').join('/')}`;
          routes.push(route);
          const rule =
            Reflect.getMetadata(ACCESS_RULE, handler) ?? Reflect.getMetadata(ACCESS_RULE, controller);
          if (rule === undefined) undeclared.push(`${route} (${controller.name}.${key})`);
        }
      }
    }
    expect(routes.length).toBeGreaterThan(50);
    expect(undeclared).toEqual([]);
  });
});
