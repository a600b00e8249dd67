import type { ConsolePlan, ConsolePlanSaveParams, ConsoleService } from '@panel247/contract/console';
import type { ProviderService } from '@panel247/contract/provider';
import type { Db } from '../../db/database.ts';
import { type ListPage, listWindowOf } from '../../db/list-query.ts';
import { NotFoundError } from '../../errors.ts';
import type { AdminService } from '../admin/admin.service.ts';
import type { Plan } from '../plans/plan.ts';
import type { PlansService } from '../plans/plans.service.ts';
import { diskLimitBytes, type ProvisioningPorts } from '../provider/provisioning.service.ts';
import { consoleServicesRepository, type ServiceSort } from './console-services.repository.ts';

function toPlan(plan: Plan): ConsolePlan {
  const { id: _id, ...shown } = plan;
  return shown;
}

/**
 * What the provider's staff do in the console: the same provisioning a billing system does
 * (accounts, suspension, plans, termination: one code path, ProvisioningService, which the
 * routes call), the plans,
 * and a paged view of every service with its plan, state and disk use.
 */
export class ConsoleServices {
  constructor(
    private readonly db: Db,
    private readonly admin: Pick<AdminService, 'listBrands' | 'listUsers' | 'setManageUsers'>,
    private readonly plans: PlansService,
    /** The service's home and databases, in bytes (the overview's figures: the last measured). */
    private readonly sizes: ProvisioningPorts['sizes'],
  ) {}

  async listPlans(): Promise<ConsolePlan[]> {
    return (await this.plans.list()).map(toPlan);
  }

  async savePlan(params: ConsolePlanSaveParams): Promise<ConsolePlan> {
    const { create, name, ...limits } = params;
    const saved = create === '1' ? await this.plans.create(name, limits) : await this.plans.update(name, limits);
    return toPlan(saved);
  }

  async removePlan(name: string): Promise<void> {
    await this.plans.remove(name);
  }

  /** A user's right to manage their account's users (the account keeps one user who holds it). */
  async setManageUsers(domain: string, username: string, value: boolean): Promise<void> {
    const users = await this.admin.listUsers(domain);
    if (!users.some((user) => user.username === username)) throw new NotFoundError();
    await this.admin.setManageUsers(domain, username, value);
  }

  async brands() {
    return (await this.admin.listBrands()).map((brand) => ({
      slug: brand.slug,
      name: brand.company || brand.slug,
      isDefault: brand.is_default === 1,
    }));
  }

  /** One page of every hosting service; its disk use is the last figure measured. */
  async services(
    params: {
      page?: number | undefined;
      pageSize: number;
      filter: string;
      sort: ServiceSort;
      order: 'asc' | 'desc';
    },
    only?: number,
  ): Promise<{ services: ConsoleService[]; total: number }> {
    const page: ListPage<ServiceSort> = listWindowOf({ ...params, page: params.page ?? 1 });
    const { rows, total } = await consoleServicesRepository.page(this.db, page, only);
    // the plans once for the page (not each service's whole usage: its counts are not shown here)
    const plans = new Map((await this.plans.list()).map((plan) => [plan.name, plan]));
    // side by side: each size is asked of its server with a deadline, so a page waits for one at most
    const services = await Promise.all(
      rows.map(async (row): Promise<ConsoleService> => {
        const sizes = await this.sizes({ id: row.id, domain: row.domain });
        const plan = plans.get(row.plan ?? 'default');
        return {
          id: row.id,
          domain: row.domain,
          plan: row.plan ?? 'default',
          state: row.suspended_at === null ? 'active' : 'suspended',
          suspendedReason: row.suspended_reason,
          account: row.account,
          brand: row.brand,
          diskBytes: sizes.webBytes + sizes.databaseBytes,
          diskLimitBytes: plan ? diskLimitBytes(plan) : null,
        };
      }),
    );
    return { services, total };
  }

  /** A service as the console's list shows it, after a change. */
  async service(changed: ProviderService): Promise<ConsoleService> {
    const { services } = await this.services({ filter: '', pageSize: 1, sort: 'domain', order: 'asc' }, changed.id);
    const [found] = services;
    if (!found) throw new Error(`service ${changed.domain} not listed`);
    return found;
  }
}
