import { Component, CUSTOM_ELEMENTS_SCHEMA, signal } from '@angular/core';
import 'callfold/elements/tool-timeline';
import type { ToolOpenPathEvent } from 'callfold/elements/tool-timeline';
import { session } from '../../shared/session';

// CUSTOM_ELEMENTS_SCHEMA lets the template use the tags and bind their properties. With
// strictTemplates, `$event` takes its type from the element's `addEventListener` overloads:
// `tool-timeline` is in HTMLElementTagNameMap and `tool-open-path` in
// GlobalEventHandlersEventMap (both declared by the import above), so `open` receives a
// ToolOpenPathEvent without a cast. Property bindings on custom elements are not typechecked.
@Component({
  selector: 'app-root',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <tool-timeline [source]="source" expand-groups (tool-open-path)="open($event)">
      <p slot="empty">No activity yet.</p>
    </tool-timeline>
    <p>Opened: <output id="opened">{{ opened() }}</output></p>
  `,
})
export class AppComponent {
  readonly source = session();
  readonly opened = signal('');

  open(event: ToolOpenPathEvent): void {
    this.opened.set(event.detail.path);
  }
}
