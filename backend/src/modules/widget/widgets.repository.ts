import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { whereOwned, type OwnerScope } from '../../common/database/owner-scope';
import type { Page } from '../../common/http/pagination';
import { WidgetConversation } from './widget-conversation.entity';
import { WidgetMessage } from './widget-message.entity';
import { Widget } from './widget.entity';

export type NewWidget = Pick<
  Widget,
  | 'user_id'
  | 'organization_id'
  | 'avatar_id'
  | 'name'
  | 'accent_color'
  | 'image_file_id'
  | 'allowed_origins'
  | 'messages_per_minute'
  | 'words_per_day'
  | 'max_concurrent_streams'
  | 'public_key'
>;
export type WidgetChanges = Partial<
  Pick<
    Widget,
    | 'avatar_id'
    | 'name'
    | 'accent_color'
    | 'image_file_id'
    | 'allowed_origins'
    | 'messages_per_minute'
    | 'words_per_day'
    | 'max_concurrent_streams'
    | 'disabled'
  >
>;

/** The widgets, widget_conversations and widget_messages tables: the only code that reads or writes them. */
@Injectable()
export class WidgetsRepository {
  constructor(
    @InjectRepository(Widget) private readonly widgets: Repository<Widget>,
    @InjectRepository(WidgetConversation) private readonly conversations: Repository<WidgetConversation>,
    @InjectRepository(WidgetMessage) private readonly messages: Repository<WidgetMessage>,
  ) {}

  async page(scope: OwnerScope, page: Page): Promise<{ rows: Widget[]; total: number }> {
    const qb = whereOwned(this.widgets.createQueryBuilder('w'), scope, 'w');
    const [rows, total] = await Promise.all([
      qb
        .clone()
        .orderBy('w.createdAt', 'DESC')
        .addOrderBy('w.widget_id', 'DESC')
        .offset(page.skip)
        .limit(page.limit)
        .getMany(),
      qb.getCount(),
    ]);
    return { rows, total };
  }

  count(scope: OwnerScope): Promise<number> {
    return whereOwned(this.widgets.createQueryBuilder('w'), scope, 'w').getCount();
  }

  findOwned(scope: OwnerScope, widgetId: number): Promise<Widget | null> {
    return whereOwned(this.widgets.createQueryBuilder('w'), scope, 'w')
      .andWhere('w.widget_id = :widgetId', { widgetId })
      .getOne();
  }

  findByKey(publicKey: string): Promise<Widget | null> {
    return this.widgets.findOneBy({ public_key: publicKey });
  }

  insert(values: NewWidget): Promise<Widget> {
    return this.widgets.save(this.widgets.create(values));
  }

  async update(widgetId: number, changes: WidgetChanges): Promise<void> {
    if (Object.keys(changes).length) await this.widgets.update({ widget_id: widgetId }, changes);
  }

  async delete(scope: OwnerScope, widgetId: number): Promise<boolean> {
    const result = await whereOwned(this.widgets.createQueryBuilder().delete(), scope)
      .andWhere('widget_id = :widgetId', { widgetId })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Words the widget's answers used since `since`. */
  async wordsSince(widgetId: number, since: Date): Promise<number> {
    const row = (await this.messages
      .createQueryBuilder('m')
      .select('COALESCE(sum(m.words), 0)::bigint', 'words')
      .where('m.widget_id = :widgetId AND m."createdAt" >= :since', { widgetId, since })
      .getRawOne()) as { words: string };
    return Number(row.words);
  }

  /** The visitor's conversation with the widget, made on their first visit (counted in the widget's usage). */
  async conversationFor(widgetId: number, visitorId: string, origin: string): Promise<WidgetConversation> {
    const inserted = (await this.conversations
      .createQueryBuilder()
      .insert()
      .values({ widget_id: widgetId, visitor_id: visitorId, origin })
      .orIgnore()
      .returning('widget_conversation_id')
      .execute()) as { raw: { widget_conversation_id: number }[] };
    if (inserted.raw.length) await this.widgets.increment({ widget_id: widgetId }, 'conversations_count', 1);
    return this.conversations.findOneByOrFail({ widget_id: widgetId, visitor_id: visitorId });
  }

  /** The conversation's latest `limit` messages, oldest first. */
  async latestMessages(conversationId: number, limit: number): Promise<WidgetMessage[]> {
    const rows = await this.messages.find({
      where: { widget_conversation_id: conversationId },
      order: { widget_message_id: 'DESC' },
      take: limit,
    });
    return rows.reverse();
  }

  async insertQuestion(widgetId: number, conversationId: number, content: string): Promise<WidgetMessage> {
    const row = await this.messages.save(
      this.messages.create({
        widget_id: widgetId,
        widget_conversation_id: conversationId,
        role: 'user',
        content,
      }),
    );
    await this.widgets.increment({ widget_id: widgetId }, 'messages_count', 1);
    return row;
  }

  /** Saves a complete answer and counts it, in the engine's settle transaction (with the owner's charge). */
  async insertAnswer(
    m: EntityManager,
    values: {
      widget_id: number;
      widget_conversation_id: number;
      content: string;
      finish_reason: string;
      words: number;
    },
  ): Promise<WidgetMessage> {
    const repo = m.getRepository(WidgetMessage);
    const row = await repo.save(repo.create({ ...values, role: 'assistant' }));
    await m
      .getRepository(Widget)
      .createQueryBuilder()
      .update()
      .set({
        messages_count: () => 'messages_count + 1',
        words_count: () => 'words_count + :words',
      })
      .where('widget_id = :widgetId', { widgetId: values.widget_id, words: values.words })
      .execute();
    return row;
  }
}
